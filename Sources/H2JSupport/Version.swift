/// heic2jpg's version, in this one place: `--version` prints it (`heic2jpg 0.2.0`), and
/// every provenance mark and state run records it. Scripts take it from the built
/// binary (`heic2jpg --version`, second field), so a package is versioned as the binary
/// it carries (ARCHITECTURE.md, "The version").
package enum Version {
    package static let current = "0.2.0"
}
