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

    /// Why the decoded image does not fit the transforms: the file contradicts itself
    /// (`corrupt-container`), or the image is too large to hold (`limit-exceeded`).
    struct Mismatch: CodedError, CustomStringConvertible {
        let description: String
        var code: ErrorCode = .corruptContainer
    }

    /// `canvas`, `width` × `height` pixels of `components` bytes, row after row, placed
    /// by `transforms` (the item's, in order).
    init(canvas: [UInt8], width canvasWidth: Int, height canvasHeight: Int, components: Int, transforms: [ImageTransform]) throws {
        guard canvas.count == canvasWidth * canvasHeight * components else {
            throw Mismatch(description: "\(canvas.count) bytes are not a \(canvasWidth)×\(canvasHeight) image of \(components) components")
        }
        let raster = try Self.raster(width: canvasWidth, height: canvasHeight, components: components)
        _ = raster.pixels.initialize(from: canvas)
        try self.init(raster, transforms: transforms)
    }

    /// `image`, decoded without its transforms (alpha flattened), placed by them.
    init(_ image: DecodedImage, transforms: [ImageTransform]) throws {
        let raster = try Self.raster(width: image.width, height: image.height, components: image.components)
        let rowBytes = image.width * image.components
        var y = 0
        image.forEachBand { rows, stride, count in
            for row in 0..<count { raster.mutableRow(y + row).update(from: rows + row * stride, count: rowBytes) }
            y += count
        }
        try self.init(raster, transforms: transforms)
    }

    /// The canvas placed by `transforms`; the placing itself is `CanvasBands`', as for
    /// JPEG items and unci images.
    private init(_ raster: Raster, transforms: [ImageTransform]) throws {
        let geometry: PlaneGeometry
        do {
            geometry = try PlaneGeometry(canvasWidth: raster.width, canvasHeight: raster.height, transforms: transforms)
        } catch {
            throw Mismatch(description: "the decoded \(raster.width)×\(raster.height) image: \(error)")
        }
        var placed: [UInt8] = []
        placed.reserveCapacity(geometry.width * geometry.height * raster.components)
        CanvasBands(canvas: raster, geometry: geometry, components: raster.components).forEachBand { rows, stride, count in
            placed += UnsafeBufferPointer(start: rows, count: stride * count)
        }
        pixels = placed
        (width, height, components) = (geometry.width, geometry.height, raster.components)
    }

    private static func raster(width: Int, height: Int, components: Int) throws -> Raster {
        guard let raster = Raster(width: width, height: height, components: components) else {
            throw Mismatch(description: "a \(width)×\(height) image of \(components) components cannot be held", code: .limitExceeded)
        }
        return raster
    }
}
