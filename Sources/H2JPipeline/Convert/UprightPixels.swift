import H2JContainer
import H2JLibheif

/// A decoded image placed upright by its `PlaneGeometry` (`irot`/`imir`/`clap` composed),
/// for the transforms libheif 1.15 cannot apply itself: it mirrors only 8-bit planes
/// ("Can currently only mirror images with 8 bits per pixel"), so a 10-bit mirrored
/// image is decoded untransformed and placed here, as the tile engine places tiles.
///
/// Invariant: `pixels` holds `height` rows of `width · components` bytes; the geometry's
/// canvas is the decoded image's size (`init` refuses any other), so every output pixel
/// reads inside it.
struct UprightPixels {
    let width: Int
    let height: Int
    let components: Int
    let pixels: [UInt8]

    /// Why the decoded image does not fit the transforms.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// `image` decoded without its transforms; `transforms` the item's, in order.
    init(_ image: DecodedImage, transforms: [ImageTransform]) throws {
        let geometry: PlaneGeometry
        do {
            geometry = try PlaneGeometry(canvasWidth: image.width, canvasHeight: image.height, transforms: transforms)
        } catch {
            throw Mismatch(description: "the decoded \(image.width)×\(image.height) image: \(error)")
        }
        let components = image.components
        var canvas: [UInt8] = []
        canvas.reserveCapacity(image.width * image.height * components)
        image.forEachBand { rows, stride, count in
            for row in 0..<count {
                canvas += UnsafeBufferPointer(start: rows + row * stride, count: image.width * components)
            }
        }
        let rowBytes = geometry.width * components
        pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * geometry.height) { out, initialized in
            for v in 0..<geometry.height {
                for u in 0..<geometry.width {
                    let (x, y) = geometry.canvas(u, v)
                    let from = (y * image.width + x) * components, to = v * rowBytes + u * components
                    for c in 0..<components { out[to + c] = canvas[from + c] }
                }
            }
            initialized = rowBytes * geometry.height
        }
        (width, height, self.components) = (geometry.width, geometry.height, components)
    }
}
