/// A picture decoded whole before its transforms are applied (a JPEG item's pixels
/// that must be turned, an uncompressed image, a derived image's input): 8-bit rows of
/// gray or RGB.
package protocol DecodedCanvas: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// 1 gray, 3 RGB.
    var components: Int { get }
    /// Row `y`: `width * components` bytes.
    func row(_ y: Int) -> UnsafePointer<UInt8>
}

extension Raster: DecodedCanvas {}
