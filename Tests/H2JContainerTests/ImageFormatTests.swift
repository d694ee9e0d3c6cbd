import Testing
@testable import H2JContainer

@Suite("Sniffing by content")
struct ImageFormatTests {
    /// An `ftyp` box with the given major and compatible brands.
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        return [0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
            + compatible.flatMap { Array($0.utf8) }
    }

    @Test("HEIF brands are recognised, major or compatible", arguments: [
        ("heic", [String]()), ("heix", []), ("mif1", ["heic"]), ("avif", []), ("msf1", []), ("isom", ["mif1"]),
    ])
    func heifBrands(major: String, compatible: [String]) {
        #expect(ImageFormat.sniff(Self.ftyp(major, compatible)).isHEIF)
    }

    @Test("The decisive brand is the first HEIF brand")
    func decisiveBrand() {
        #expect(ImageFormat.sniff(Self.ftyp("isom", ["mp41", "mif1", "heic"])) == .heif(brand: "mif1"))
    }

    @Test("ISO media that is not HEIF is named as such")
    func mp4() {
        let format = ImageFormat.sniff(Self.ftyp("isom", ["mp41", "avc1"]))
        #expect(format == .isoMedia(brand: "isom"))
        #expect(!format.isHEIF)
    }

    @Test("Compatible brands past the box end are ignored")
    func brandsBeyondBox() {
        var bytes = Self.ftyp("isom", [])
        bytes += Array("heic".utf8)  // after the 16-byte box: belongs to the next box
        #expect(ImageFormat.sniff(bytes) == .isoMedia(brand: "isom"))
    }

    @Test("A low-overhead file is HEIF by 'mif3' and the 'mini' box after 'ftyp' (its codec brand is the minor version)")
    func mini() {
        let ftyp = Self.ftyp("mif3", [])
        let mini: [UInt8] = [0, 0, 0, 9] + Array("mini".utf8) + [0]
        #expect(ImageFormat.sniff(ftyp + mini) == .heif(brand: "mif3"))
        #expect(ImageFormat.sniff(ftyp + [0, 0, 0, 8] + Array("free".utf8)) == .isoMedia(brand: "mif3"))
        #expect(ImageFormat.sniff(Self.ftyp("isom", []) + mini) == .isoMedia(brand: "isom"))
        #expect(ImageFormat.brands(Self.ftyp("mif3", ["avif"])) == ["mif3", "avif"])
        #expect(ImageFormat.brands(mini) == nil)
    }

    @Test("Other formats by magic number")
    func magic() {
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.sniff([0x49, 0x49, 0x2A, 0x00]) == .tiff)
        #expect(ImageFormat.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat.sniff([]) == .empty)
        #expect(ImageFormat.sniff(Array("hello".utf8)) == .unknown)
    }

    @Test("Messages name what a misnamed file looks like")
    func descriptions() {
        #expect(ImageFormat.png.description == "PNG")
        #expect(ImageFormat.empty.description == "an empty file")
    }

    @Test("HEIF extensions, case-insensitive; a dot-file has no extension")
    func extensions() {
        #expect(HEIFExtensions.matches("IMG_0001.HEIC"))
        #expect(HEIFExtensions.matches("a.b.hif"))
        #expect(HEIFExtensions.matches("x.avif"))
        #expect(!HEIFExtensions.matches("photo.jpg"))
        #expect(!HEIFExtensions.matches(".heic"))
        #expect(!HEIFExtensions.matches("heic"))
    }
}
