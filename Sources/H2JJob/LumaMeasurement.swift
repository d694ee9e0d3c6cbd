/// `compare`'s Y-PSNR of its outputs, measured in a worker process (the `measure`
/// message; the measuring is `H2JConvert`'s): the source decoded once, as the converter's libheif engine decodes it, and
/// each JPEG decoded by libjpeg. Both decoders meet untrusted bytes, so neither runs in
/// `compare`'s own process; a crash or a hang there costs that file's comparison only.
package struct LumaMeasurement: Equatable, Sendable {
    /// The source's upright size, as libheif decodes it.
    package let width: Int
    package let height: Int
    /// Y-PSNR of each JPEG against it (`LumaPSNR`), in order: +infinity for identical luma.
    package let decibels: [Double]
    /// What `compare --html` shows, when the `measure` message asked for it.
    package let pictures: ComparisonPictures?

    package init(width: Int, height: Int, decibels: [Double], pictures: ComparisonPictures? = nil) {
        self.width = width
        self.height = height
        self.decibels = decibels
        self.pictures = pictures
    }
}
