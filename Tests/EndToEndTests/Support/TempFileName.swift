/// heic2jpg's temp files as tests see them in an output directory.
enum TempFileName {
    /// Whether `name` is one of heic2jpg's temp files (`.heic2jpg-HOST-PID-N.tmp`).
    static func matches(_ name: String) -> Bool {
        name.hasPrefix(".heic2jpg-") && name.hasSuffix(".tmp")
    }
}
