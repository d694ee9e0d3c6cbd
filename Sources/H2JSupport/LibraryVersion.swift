/// One C library the program loads and the version it reports at run time (not the
/// headers it was built with): what `heic2jpg --version --verbose` lists. Each library
/// target gives its own (`LibraryVersion.libheif`, …); `name` is the library's usual name.
package struct LibraryVersion: Equatable, Sendable {
    package let name: String
    package let version: String

    package init(_ name: String, _ version: String) {
        self.name = name
        self.version = version
    }

    /// A version a library reports as a C string; "unknown" when it reports none.
    package init(_ name: String, cString: UnsafePointer<CChar>?) {
        self.init(name, cString.map { String(cString: $0) } ?? "unknown")
    }
}
