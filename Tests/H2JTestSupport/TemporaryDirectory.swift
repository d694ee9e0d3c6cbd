import Foundation

/// A fresh directory under /tmp, removed on deinit. Unit and end-to-end tests share it.
package final class TemporaryDirectory {
    package let path: String

    package init() {
        path = NSTemporaryDirectory() + "heic2jpg-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` at `relative`, creating parent directories. Returns the full path.
    @discardableResult
    package func file(_ relative: String, _ bytes: [UInt8]) -> String {
        let full = path + "/" + relative
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: full, contents: Data(bytes)), "cannot create \(full)")
        return full
    }

    package func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/" + relative)
    }

    /// The full path of `name` inside the directory (nothing is created).
    package func sub(_ name: String) -> String { path + "/" + name }

    /// Every file below the directory (or below `name` in it), relative, sorted.
    package func files(_ name: String = "") -> [String] {
        let root = name.isEmpty ? path : sub(name)
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
        return all.filter { !isDirectory(root + "/" + $0) }.sorted()
    }

    private func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
