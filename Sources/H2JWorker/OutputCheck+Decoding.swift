import H2JJPEGCodec
import H2JJob
import H2JSupport

extension OutputCheck {
    /// Decodes the JPEG at `descriptor` (the parent's, passed with `check`; closed here) in
    /// full with libjpeg (`JPEGCheck`), its pixels discarded.
    init(decoding descriptor: Int32) {
        let bytes: [UInt8]
        do {
            bytes = try SourceFile(adopting: descriptor, path: "the output").readAll()
        } catch {
            self.init(width: nil, height: nil, problem: "cannot read it: \(error)")
            return
        }
        let check = JPEGCheck(bytes)
        self.init(width: check.width, height: check.height, problem: check.problem)
    }
}
