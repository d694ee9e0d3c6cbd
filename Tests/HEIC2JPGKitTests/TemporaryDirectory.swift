import Foundation

/// A fresh directory under /tmp, removed on deinit.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "heic2jpg-unit-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` at `relative`, creating parent directories. Returns the full path.
    @discardableResult
    func file(_ relative: String, _ bytes: [UInt8]) -> String {
        let full = path + "/" + relative
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: full, contents: Data(bytes)), "cannot create \(full)")
        return full
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/" + relative)
    }

    /// Sniffable stand-ins: only their first bytes matter to the walker and planner.
    static let heif = ImageFormatTestBytes.ftyp
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]
}

enum ImageFormatTestBytes {
    static let ftyp: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
}
