import H2JTestSupport

/// Sniffable stand-ins: only their first bytes matter to the walker and planner.
extension TemporaryDirectory {
    static let heif = ImageFormatTestBytes.ftyp
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]
}

enum ImageFormatTestBytes {
    static let ftyp: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
}
