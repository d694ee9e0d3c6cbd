#if canImport(Glibc)
import Glibc
#endif

/// Path arithmetic on plain strings: links and `..` are never resolved, so a path
/// means what the user typed. It works on Unicode scalars, never on Characters: a name
/// that starts with a combining mark must not merge with the `/` before it.
package enum Path {
    /// Whether `path` is a directory (following a final symlink, as `open` would).
    package static func isDirectory(_ path: String) -> Bool {
        POSIX.fileInfo(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
    }

    /// `path` from the root: as it is when absolute, else joined to the working directory.
    package static func absolute(_ path: String) -> String {
        guard path.unicodeScalars.first != "/" else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = PathBytes.string(cString: buffer)
        return path == "." ? directory : join(directory, path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// `directory/name`, with no doubled slash.
    package static func join(_ directory: String, _ name: String) -> String {
        directory.unicodeScalars.last == "/" ? directory + name : directory + "/" + name
    }

    /// The last component (`a/b/` → `b`).
    package static func lastComponent(_ path: String) -> String {
        var scalars = Substring(path).unicodeScalars
        if scalars.count > 1 && scalars.last == "/" { scalars.removeLast() }
        guard let slash = scalars.lastIndex(of: "/") else { return String(scalars) }
        return String(scalars[scalars.index(after: slash)...])
    }

    /// The directory part: `.` for a bare name, `/` for a name in the root.
    package static func parent(_ path: String) -> String {
        let scalars = path.unicodeScalars
        guard let slash = scalars.lastIndex(of: "/") else { return "." }
        return slash == scalars.startIndex ? "/" : String(scalars[..<slash])
    }

    /// The name without its last extension; a leading dot is not an extension.
    package static func stem(_ name: String) -> String {
        let scalars = name.unicodeScalars
        guard let dot = scalars.lastIndex(of: "."), dot != scalars.startIndex else { return name }
        return String(scalars[..<dot])
    }
}
