/// What a worker found when it decoded a published JPEG in full for the hand-off (the
/// `check` message): its size, and whether libjpeg decoded it without an error or a
/// warning. The parent decodes nothing itself; it refuses the hand-off on any problem.
package struct OutputCheck: Sendable, Equatable {
    package let width: Int?
    package let height: Int?
    /// nil when the JPEG decoded cleanly; otherwise why not.
    package let problem: String?

    package init(width: Int?, height: Int?, problem: String?) {
        (self.width, self.height, self.problem) = (width, height, problem)
    }

    /// Most bytes of a problem's text the parent accepts: libjpeg's messages are short.
    package static let maxProblemBytes = 1024

    package func encode(to out: inout WireWriter) {
        out.optional(width) { $0.int($1) }
        out.optional(height) { $0.int($1) }
        out.optional(problem) { $0.string($1) }
    }

    /// Reads a worker's answer as hostile input: sizes within a JPEG's, a short text.
    package init(from reader: inout WireReader) throws(WireError) {
        let side = { (r: inout WireReader) throws(WireError) -> Int in
            let value = try r.int()
            guard (0...65_535).contains(value) else { throw WireError(reason: "a JPEG side of \(value)") }
            return value
        }
        width = try reader.optional(side)
        height = try reader.optional(side)
        problem = try reader.optional { (r: inout WireReader) throws(WireError) -> String in
            let text = try r.data()
            guard text.count <= Self.maxProblemBytes else { throw WireError(reason: "a \(text.count)-byte problem") }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
