#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// Why a worker stopped in the middle of a file, in the words the file's failure gives:
/// "decoder crashed: SIGABRT in libheif, decoding; it last said: …".
struct WorkerDeath: CodedError {
    enum Cause {
        /// The worker died (a signal, or an exit) on its own.
        case died(WorkerExit)
        /// The parent killed it: the file took longer than `--timeout`.
        case timedOut(seconds: Int)
        /// It broke the protocol (a malformed message), so the parent killed it.
        case misbehaved(String)
    }

    let cause: Cause
    /// The stage it was in and, once chosen, the engine (its last `stage` message).
    let stage: PipelineError.Stage?
    let engine: ConversionResult.Engine?
    /// The image item the stage was for, when it is not the primary's output.
    let image: UInt32?
    /// The last line it wrote to stderr.
    let lastWords: String
    let limits: WorkerLimits

    /// The error code of the file's failure.
    var code: ErrorCode {
        switch cause {
        case .timedOut: .timedOut
        case .died(let exit) where exit.signal.map(Self.external.contains) == true: .interrupted
        case .died(let exit) where ranOutOfMemory(exit): .outOfMemory
        case .died, .misbehaved: .decoderCrashed
        }
    }

    var reason: String {
        var text: String
        switch cause {
        case .timedOut(let seconds):
            text = "timed out after \(seconds) s \(site) (--timeout); the decoder was stopped"
        case .misbehaved(let problem):
            text = "decoder failed \(site): \(problem); the decoder was stopped"
        case .died(let exit):
            let how = exit.signal.map { "crashed: \(POSIX.signalName($0))" } ?? "exited with status \(exit.status)"
            if code == .interrupted {
                text = "interrupted: the decoder got \(exit.signal.map(POSIX.signalName) ?? "a signal") \(site)"
            } else if code == .outOfMemory {
                text = "decoder ran out of memory \(site) (--max-memory \(Self.mebibytes(limits.memoryBytes)), "
                    + "peak \(Self.mebibytes(exit.peakBytes))); it \(how)"
            } else {
                text = "decoder \(how) \(site)"
                if exit.signal == SIGKILL { text += " (killed from outside: the kernel's out-of-memory killer?)" }
            }
        }
        if !lastWords.isEmpty { text += "; it last said: \(lastWords)" }
        return text
    }

    /// Signals a worker gets from outside when the run itself is being stopped (Ctrl-C,
    /// a `kill` of the process group): the file was interrupted, not a crash.
    static let external: Set<Int32> = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Died near its memory limit, or said it could not allocate (memory, or a thread
    /// whose stack the limit refused: EAGAIN).
    private func ranOutOfMemory(_ exit: WorkerExit) -> Bool {
        let words = lastWords.lowercased()
        return exit.peakBytes >= limits.memoryBytes / 10 * 8
            || Self.memoryWords.contains { words.contains($0) }
    }

    /// What the C++ runtime, glibc and Swift print when an allocation fails.
    static let memoryWords = ["bad_alloc", "allocat", "out of memory", "cannot allocate memory",
                              "resource temporarily unavailable"]

    /// Where in the pipeline: the library that was running.
    private var site: String {
        switch (stage, engine) {
        case (.parse?, _): "in heic2jpg's container reader"
        // The engine is chosen by opening the item: libheif reads the container, or
        // heic2jpg's own reader a JPEG item's codestream or an unci image's layout.
        case (.engine?, _): "opening the item (libheif reading the container, or heic2jpg's JPEG-item or unci reader)"
        case (.limit?, _), (.graft?, _): "in the metadata graft"
        case (.decode?, .libheif?): "in libheif, decoding"
        case (.decode?, .derived?): "decoding the inputs of a derived image (libheif, libjpeg or heic2jpg's unci reader)"
        case (.decode?, _): "decoding"
        case (.pixels?, _): "choosing the pixel stage (LittleCMS reading the colour profile)"
        case (.write?, .tiles?): "in \(limits.decoder == .avcodec ? "libavcodec" : "libde265") or libjpeg, decoding tiles into JPEG bands"
        case (.write?, _): "in libjpeg, encoding"
        case (.gainMap?, _): "computing the gain map from the HDR and SDR renditions (tone mapping, libjpeg)"
        case (.copy?, _): "in libjpeg, checking the JPEG"
        case (.plan?, _), (nil, _): "before it started the file"
        }
    }

    static func mebibytes(_ bytes: Int) -> String { "\(bytes >> 20) MiB" }
}
