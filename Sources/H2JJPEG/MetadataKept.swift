/// Which metadata a JPEG carries: its APP1 EXIF and XMP and APP2 ICC segments.
package struct MetadataKept: Sendable, Equatable {
    package var exif = false
    package var xmp = false
    package var icc = false
    package init(exif: Bool = false, xmp: Bool = false, icc: Bool = false) {
        self.exif = exif
        self.xmp = xmp
        self.icc = icc
    }
}
