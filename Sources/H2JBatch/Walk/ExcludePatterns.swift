#if canImport(Glibc)
import Glibc
#endif

/// `--exclude PATTERN` (repeatable): what a walk leaves out, by a shell glob (`fnmatch`)
/// on a path relative to its input. A pattern without `/` matches one name at any depth
/// (`@eaDir`, `.thumbnails`, `*.tmp`); a pattern with `/` matches the relative path from
/// the input down (`2019/raw`, `*/cache`). `*`, `?` and `[…]` never cross a `/`. A
/// directory that matches is left out whole: the walk does not enter it, and a listed or
/// watched file under it is left out too. An input named on the command line is never
/// excluded: the user asked for it.
package struct ExcludePatterns: Sendable, Equatable {
    package let patterns: [String]

    package init(_ patterns: [String] = []) {
        self.patterns = patterns
    }

    package var isEmpty: Bool { patterns.isEmpty }

    /// The first pattern the entry `name`, at `relativePath` (its name included), matches.
    package func match(name: String, relativePath: String) -> String? {
        patterns.first { pattern in
            fnmatch(pattern, pattern.contains("/") ? relativePath : name, FNM_PATHNAME) == 0
        }
    }

    /// The first pattern that `relativePath` or any directory above it matches: a file
    /// that comes by itself (a list, a watch), not from a walk that already pruned.
    package func match(relativePath: String) -> String? {
        guard !patterns.isEmpty else { return nil }
        var prefix = ""
        for component in relativePath.split(separator: "/", omittingEmptySubsequences: true) {
            prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
            if let pattern = match(name: String(component), relativePath: prefix) { return pattern }
        }
        return nil
    }
}
