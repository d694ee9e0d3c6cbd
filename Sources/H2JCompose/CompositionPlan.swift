import H2JContainer
import H2JSupport

/// Flattens a derived image heic2jpg composes (`HEIFStructure.isComposed`) into a
/// `Composition`, from the container alone: each node's canvas is painted by its inputs
/// (an overlay: its fill, then its layers at their offsets, the first at the bottom; a
/// grid: its tiles in rows; an `iden`: its one input), then placed by the node's own
/// transforms (`irot`, `imir`, `clap`, composed by `PlaneGeometry`). Inputs that are not
/// composed (coded images, grids of coded tiles) are pictures, decoded whole later, at
/// the upright size `pictureSize` says (their engines apply their own transforms).
///
/// Refused as `HEIFError`s before anything is decoded: a derivation cycle or one deeper
/// than `maxDerivationDepth`; canvases, pictures over the pixel limit (together, more
/// than twice it); more than `maxPaints` placements, or more painted pixels than
/// `maxPaintedPixels` times the limit, so a file of many overlapping layers is no bomb.
package enum CompositionPlan {
    static let maxPaints = 1 << 17
    static let maxPaintedPixels = 8

    package static func make(_ structure: HEIFStructure, item root: UInt32, source: ByteSource, background: RGBColor, maxPixels: Int,
                     pictureSize: (UInt32) throws -> (width: Int, height: Int)) throws -> Composition {
        try withoutActuallyEscaping(pictureSize) { pictureSize in
            var builder = Builder(structure: structure, source: source, background: background, maxPixels: maxPixels,
                                  pictureSize: pictureSize)
            let (width, height, paints) = try builder.node(root, path: [])
            try checkPainted(paints, root: root, maxPixels: maxPixels)
            return Composition(width: width, height: height, background: background, pictures: builder.pictures, paints: paints)
        }
    }

    /// Refuses paints that cover more than `maxPaintedPixels` times the pixel limit.
    private static func checkPainted(_ paints: [Composition.Paint], root: UInt32, maxPixels: Int) throws {
        var painted = 0
        for paint in paints {
            switch paint {
            case .fill(_, let rect), .picture(_, _, let rect): painted += rect.area
            }
            guard painted <= multiple(maxPaintedPixels, of: maxPixels) else {
                throw HEIFError.limitExceeded("item \(root)'s inputs paint more than \(maxPaintedPixels) times the \(maxPixels)-pixel limit")
            }
        }
    }

    /// `factor` × `pixels`, or `Int.max` when that overflows (a huge `--max-pixels`).
    static func multiple(_ factor: Int, of pixels: Int) -> Int {
        let (product, overflow) = pixels.multipliedReportingOverflow(by: factor)
        return overflow ? Int.max : product
    }

    private struct Builder {
        let structure: HEIFStructure
        let source: ByteSource
        let background: RGBColor
        let maxPixels: Int
        let pictureSize: (UInt32) throws -> (width: Int, height: Int)
        var pictures: [Composition.Picture] = []
        var pictureIndex: [UInt32: Int] = [:]
        var picturePixels = 0

        typealias Node = (width: Int, height: Int, paints: [Composition.Paint])

        /// Item `id`'s upright output and what paints it; `path` is the items above it.
        mutating func node(_ id: UInt32, path: [UInt32]) throws -> Node {
            if path.contains(id) {
                throw HEIFError.malformedBox("iref", reason: "item \(path.last ?? id) derives from item \(id), which derives from it: a derivation cycle")
            }
            guard path.count <= HEIFStructure.maxDerivationDepth else {
                throw HEIFError.limitExceeded("derived images nest more than \(HEIFStructure.maxDerivationDepth) deep below item \(path.first ?? id)")
            }
            guard structure.isComposed(id) else { return try picture(id) }
            let inputs = structure.referenced(from: id, type: "dimg")
            let canvas: Node
            switch structure.items[id]?.type {
            case "iden":
                guard inputs.count == 1 else {
                    throw HEIFError.malformedBox("iden", reason: "item \(id) has \(inputs.count) 'dimg' inputs, 1 expected")
                }
                canvas = try node(inputs[0], path: path + [id])
            case "iovl":
                canvas = try overlay(id, layers: inputs, path: path + [id])
            default:
                canvas = try grid(id, tiles: inputs, path: path + [id])
            }
            let geometry: PlaneGeometry
            do {
                geometry = try PlaneGeometry(canvasWidth: canvas.width, canvasHeight: canvas.height, transforms: structure.transforms(of: id))
            } catch let refusal as PlaneGeometry.Refusal {
                throw HEIFError.unusableImage(id: id, reason: refusal.description)
            }
            return (geometry.width, geometry.height, canvas.paints.compactMap { paint in
                switch paint {
                case .fill(let colour, let rect):
                    return Self.rect(geometry.outputRect(x: rect.u0, y: rect.v0, w: rect.u1 - rect.u0, h: rect.v1 - rect.v0)).map { .fill(colour, $0) }
                case .picture(let index, let map, let rect):
                    return Self.rect(geometry.outputRect(x: rect.u0, y: rect.v0, w: rect.u1 - rect.u0, h: rect.v1 - rect.v0))
                        .map { .picture(index, map.after(geometry), $0) }
                }
            })
        }

        /// A coded input (or a grid of coded tiles), decoded whole: one picture per item.
        private mutating func picture(_ id: UInt32) throws -> Node {
            if let index = pictureIndex[id] {
                let known = pictures[index]
                return (known.width, known.height, [.picture(index, .identity, Composition.Rect(u0: 0, v0: 0, u1: known.width, v1: known.height))])
            }
            let (width, height) = try pictureSize(id)
            try checkCanvas(id, width: width, height: height)
            picturePixels += width * height
            guard picturePixels <= CompositionPlan.multiple(2, of: maxPixels) else {
                throw HEIFError.limitExceeded("the inputs of a derived image hold more than twice the \(maxPixels)-pixel limit")
            }
            pictureIndex[id] = pictures.count
            pictures.append(Composition.Picture(item: id, width: width, height: height))
            return (width, height, [.picture(pictures.count - 1, .identity, Composition.Rect(u0: 0, v0: 0, u1: width, v1: height))])
        }

        /// The overlay's fill (16-bit RGBA, composited onto the background), then each
        /// layer at its offset, clipped to the canvas.
        private mutating func overlay(_ id: UInt32, layers: [UInt32], path: [UInt32]) throws -> Node {
            let overlay = try ImageOverlay.parse(structure.itemData(id, from: source, maxBytes: HEIFStructure.maxDescriptorBytes),
                                                 layers: layers.count)
            try checkCanvas(id, width: overlay.width, height: overlay.height)
            let canvas = Composition.Rect(u0: 0, v0: 0, u1: overlay.width, v1: overlay.height)
            var paints: [Composition.Paint] = [.fill(Self.fillColour(overlay.fill, background: background), canvas)]
            for (layer, offset) in zip(layers, overlay.offsets) {
                let input = try node(layer, path: path)
                paints += Self.placed(input.paints, x: offset.x, y: offset.y, in: canvas)
                try checkPaints(paints.count)
            }
            return (overlay.width, overlay.height, paints)
        }

        /// Tiles in rows of `columns`, each the first tile's size, cropped to the canvas.
        private mutating func grid(_ id: UInt32, tiles: [UInt32], path: [UInt32]) throws -> Node {
            let grid = try ImageGrid.parse(structure.itemData(id, from: source, maxBytes: HEIFStructure.maxDescriptorBytes))
            try checkCanvas(id, width: grid.outputWidth, height: grid.outputHeight)
            guard tiles.count == grid.rows * grid.columns else {
                throw HEIFError.malformedBox("grid", reason: "item \(id) declares \(grid.columns)×\(grid.rows) tiles but has \(tiles.count) 'dimg' inputs")
            }
            let canvas = Composition.Rect(u0: 0, v0: 0, u1: grid.outputWidth, v1: grid.outputHeight)
            var paints: [Composition.Paint] = []
            var tileSize: (width: Int, height: Int)?
            for (index, tile) in tiles.enumerated() {
                let input = try node(tile, path: path)
                let size = tileSize ?? (input.width, input.height)
                guard size == (input.width, input.height) else {
                    throw HEIFError.malformedBox("grid", reason: "tile item \(tile) of item \(id) is \(input.width)×\(input.height), not \(size.width)×\(size.height) like the first")
                }
                tileSize = size
                guard size.width * grid.columns >= grid.outputWidth, size.height * grid.rows >= grid.outputHeight else {
                    throw HEIFError.malformedBox("grid", reason: "item \(id)'s \(grid.columns)×\(grid.rows) tiles of \(size.width)×\(size.height) "
                                                 + "do not cover its \(grid.outputWidth)×\(grid.outputHeight) canvas")
                }
                paints += Self.placed(input.paints, x: index % grid.columns * size.width, y: index / grid.columns * size.height, in: canvas)
                try checkPaints(paints.count)
            }
            return (grid.outputWidth, grid.outputHeight, paints)
        }

        private func checkCanvas(_ id: UInt32, width: Int, height: Int) throws {
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            guard width > 0, height > 0, !overflow, pixels <= maxPixels else {
                throw HEIFError.limitExceeded("item \(id) is \(width)×\(height), over the \(maxPixels)-pixel limit")
            }
        }

        private func checkPaints(_ count: Int) throws {
            guard count <= CompositionPlan.maxPaints else {
                throw HEIFError.limitExceeded("a derived image of more than \(CompositionPlan.maxPaints) placed inputs")
            }
        }

        /// `paints` of an input moved by (`x`, `y`) onto a canvas and clipped to it.
        static func placed(_ paints: [Composition.Paint], x: Int, y: Int, in canvas: Composition.Rect) -> [Composition.Paint] {
            paints.compactMap { paint in
                switch paint {
                case .fill(let colour, let rect):
                    return clipped(rect, x: x, y: y, to: canvas).map { .fill(colour, $0) }
                case .picture(let index, let map, let rect):
                    return clipped(rect, x: x, y: y, to: canvas).map { .picture(index, map.shifted(x: x, y: y), $0) }
                }
            }
        }

        static func clipped(_ rect: Composition.Rect, x: Int, y: Int, to canvas: Composition.Rect) -> Composition.Rect? {
            let moved = Composition.Rect(u0: max(canvas.u0, rect.u0 + x), v0: max(canvas.v0, rect.v0 + y),
                                         u1: min(canvas.u1, rect.u1 + x), v1: min(canvas.v1, rect.v1 + y))
            return moved.u0 < moved.u1 && moved.v0 < moved.v1 ? moved : nil
        }

        static func rect(_ r: (u0: Int, v0: Int, u1: Int, v1: Int)?) -> Composition.Rect? {
            r.map { Composition.Rect(u0: $0.u0, v0: $0.v0, u1: $0.u1, v1: $0.v1) }
        }

        /// An overlay's fill: each 16-bit sample to 8 bits, its alpha composited onto the
        /// background (`RGBColor.composite`), as heic2jpg flattens alpha everywhere.
        static func fillColour(_ fill: [UInt16], background: RGBColor) -> RGBColor {
            func eight(_ value: UInt16) -> UInt8 { UInt8((Int(value) * 255 + 32767) / 65535) }
            let alpha = Int(eight(fill[3]))
            return RGBColor(red: RGBColor.composite(eight(fill[0]), alpha: alpha, over: background.red),
                            green: RGBColor.composite(eight(fill[1]), alpha: alpha, over: background.green),
                            blue: RGBColor.composite(eight(fill[2]), alpha: alpha, over: background.blue))
        }
    }
}
