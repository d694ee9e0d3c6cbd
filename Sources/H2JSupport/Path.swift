#if canImport(Glibc)
import Glibc
#endif

/// Path arithmetic on plain strings: links and `..` are never resolved, so a path
/// means what the user typed. It works on Unicode scalars, never on Characters: a name
/// that starts with a combining mark must not merge with the `/` before it. A `/` is
/// found in the UTF-8 bytes (a byte scan; in UTF-8 that byte is only ever a `/`), and
/// cut there on the scalars.
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
        // One allocation, not one per `+`: the walk joins a path for every entry.
        var joined = ""
        joined.reserveCapacity(directory.utf8.count + 1 + name.utf8.count)
        joined += directory
        if directory.utf8.last != slash { joined += "/" }
        joined += name
        return joined
    }

    /// Whether `path` is `directory/name`: `parent(path) == directory` for a `directory`
    /// other than `/` or `.`, compared as bytes in place, with nothing allocated.
    package static func isEntry(_ path: String, of directory: String) -> Bool {
        var path = path, directory = directory
        return path.withUTF8 { path in
            directory.withUTF8 { directory in
                let count = directory.count
                guard count > 0, path.count > count + 1, path[count] == slash, let pathStart = path.baseAddress,
                      let directoryStart = directory.baseAddress, memcmp(pathStart, directoryStart, count) == 0 else { return false }
                return !path[(count + 1)...].contains(slash)
            }
        }
    }

    /// The last component (`a/b/` → `b`).
    package static func lastComponent(_ path: String) -> String {
        let bytes = path.utf8
        var end = bytes.endIndex
        if bytes.count > 1 && bytes.last == slash { end = bytes.index(before: end) }
        let start = bytes[..<end].lastIndex(of: slash).map(bytes.index(after:)) ?? bytes.startIndex
        return utf8Slice(path, start..<end)
    }

    /// The directory part: `.` for a bare name, `/` for a name in the root.
    package static func parent(_ path: String) -> String {
        guard let cut = path.utf8.lastIndex(of: slash) else { return "." }
        return cut == path.startIndex ? "/" : utf8Slice(path, path.startIndex..<cut)
    }

    /// The text of `path` between two UTF-8 indices next to a `/` or at an end, which are
    /// always scalar boundaries; copied as bytes, where a `String` subscript would round
    /// them to characters (a `/` followed by a combining mark is one).
    private static func utf8Slice(_ path: String, _ range: Range<String.Index>) -> String {
        String(path.utf8[range]) ?? String(path.unicodeScalars[range])
    }

    private static let slash = UInt8(ascii: "/")

    /// The name without its last extension; a leading dot is not an extension.
    package static func stem(_ name: String) -> String {
        let scalars = name.unicodeScalars
        guard let dot = scalars.lastIndex(of: "."), dot != scalars.startIndex else { return name }
        return String(scalars[..<dot])
    }
}
