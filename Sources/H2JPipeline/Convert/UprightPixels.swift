import H2JContainer
import H2JLibheif
import H2JSupport

/// A decoded image placed upright by its `PlaneGeometry` (`irot`/`imir`/`clap` composed),
/// for the transforms libheif 1.15 cannot apply itself: it mirrors only 8-bit planes
/// ("Can currently only mirror images with 8 bits per pixel"), so a 10-bit mirrored
/// image is decoded untransformed and placed here by `CanvasBands`, as JPEG items and
/// uncompressed images are.
///
/// Invariant: `pixels` holds `height` rows of `width · components` bytes; the geometry's
/// canvas is the decoded image's size (`init` refuses a canvas of any other length), so
/// every output pixel reads inside it.
struct UprightPixels: Equatable {
    let width: Int
    let height: Int
    let components: Int
    let pixels: [UInt8]

    /// Why the decoded image does not fit the transforms.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// `canvas`, `width` × `height` pixels of `components` bytes, row after row, placed
    /// by `transforms` (the item's, in order).
    init(canvas: [UInt8], width canvasWidth: Int, height canvasHeight: Int, components: Int, transforms: [ImageTransform]) throws {
        let geometry: PlaneGeometry
        do {
            geometry = try PlaneGeometry(canvasWidth: canvasWidth, canvasHeight: canvasHeight, transforms: transforms)
        } catch {
            throw Mismatch(description: "the decoded \(canvasWidth)×\(canvasHeight) image: \(error)")
        }
        guard canvas.count == canvasWidth * canvasHeight * components else {
            throw Mismatch(description: "\(canvas.count) bytes are not a \(canvasWidth)×\(canvasHeight) image of \(components) components")
        }
        // The placing itself is `CanvasBands`', as for JPEG items and unci images.
        guard let raster = Raster(width: canvasWidth, height: canvasHeight, components: components) else {
            throw Mismatch(description: "a \(canvasWidth)×\(canvasHeight) image of \(components) components cannot be held")
        }
        _ = raster.pixels.initialize(from: canvas)
        var placed: [UInt8] = []
        placed.reserveCapacity(geometry.width * geometry.height * components)
        CanvasBands(canvas: raster, geometry: geometry, components: components).forEachBand { rows, stride, count in
            placed += UnsafeBufferPointer(start: rows, count: stride * count)
        }
        pixels = placed
        (width, height, self.components) = (geometry.width, geometry.height, components)
    }

    /// `image`, decoded without its transforms, placed by them.
    init(_ image: DecodedImage, transforms: [ImageTransform]) throws {
        var canvas: [UInt8] = []
        canvas.reserveCapacity(image.width * image.height * image.components)
        image.forEachBand { rows, stride, count in
            for row in 0..<count {
                canvas += UnsafeBufferPointer(start: rows + row * stride, count: image.width * image.components)
            }
        }
        try self.init(canvas: canvas, width: image.width, height: image.height, components: image.components, transforms: transforms)
    }
}
