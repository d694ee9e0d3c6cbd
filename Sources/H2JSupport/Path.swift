#if canImport(Glibc)
import Glibc
#endif

/// Path arithmetic on plain strings: links and `..` are never resolved, so a path
/// means what the user typed.
package enum Path {
    /// Whether `path` is a directory (following a final symlink, as `open` would).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// `directory/name`, with no doubled slash.
    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The last component (`a/b/` → `b`).
    package static func lastComponent(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
    }

    /// The directory part: `.` for a bare name, `/` for a name in the root.
    package static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The name without its last extension; a leading dot is not an extension.
    package static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
