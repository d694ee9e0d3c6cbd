import Glibc
import H2JJob
import Testing
@testable import H2JContainer
import H2JJPEGCodec
@testable import H2JConvert
@testable import H2JSupport

@Suite("Error codes: carried by each error, one errno table")
struct ErrorCodeTests {
    @Test("Container errors: cut short, corrupt, unsupported, over a limit, unreadable")
    func containerErrors() {
        #expect(ErrorCode(classifying: HEIFError.truncatedBox("file")) == .truncated)
        #expect(ErrorCode(classifying: HEIFError.itemDataOutOfRange(item: 1, offset: 0, length: 9, size: 4, inIdat: false)) == .truncated)
        #expect(ErrorCode(classifying: HEIFError.missingBox("pitm")) == .corruptContainer)
        #expect(ErrorCode(classifying: HEIFError.unsupportedItemData(item: 1, reason: "x")) == .unsupported)
        #expect(ErrorCode(classifying: HEIFError.limitExceeded("items")) == .limitExceeded)
        #expect(ErrorCode(classifying: HEIFError(.endOfFile(offset: 3))) == .sourceUnreadable)
        #expect(ErrorCode(classifying: HEIFError(.outOfRange(offset: 0, count: 9, size: 4))) == .truncated)
    }

    @Test("Write errors: a full disk is told apart; an interruption is its own code")
    func writeErrors() {
        #expect(ErrorCode(classifying: WriteError(path: "a", reason: "No space left on device", errno: ENOSPC)) == .diskFull)
        #expect(ErrorCode(classifying: WriteError(path: "a", reason: "Disk quota exceeded", errno: EDQUOT)) == .diskFull)
        #expect(ErrorCode(classifying: WriteError(path: "a", reason: "Permission denied", errno: EACCES)) == .writeFailed)
        for code in [EFBIG, EROFS, EMFILE, ENFILE, EAGAIN, ENOMEM] {
            #expect(ErrorCode(classifying: WriteError(path: "a", reason: "", errno: code)) == .outOfResources)
            #expect(ErrorCode(classifying: SourceError(reason: "", errno: code)) == .outOfResources)
        }
        #expect(ErrorCode(classifying: SourceError(reason: "", errno: EACCES)) == .sourceUnreadable)
        #expect(ErrorCode(classifying: SystemError(errno: EMFILE)) == .outOfResources)
        // The worker supervisor's "no process for a decoder" goes through the same table.
        #expect(ErrorCode(errno: EAGAIN, otherwise: .decoderCrashed) == .outOfResources)
        #expect(ErrorCode(errno: EPERM, otherwise: .decoderCrashed) == .decoderCrashed)
        #expect(ErrorCode(classifying: HEIFError(.system(SystemError(errno: ENFILE)))) == .outOfResources)
        // libjpeg's destination keeps the errno of the write that failed.
        #expect(ErrorCode(classifying: JPEGError(stage: "rows", message: "cannot write output", errno: ENOSPC)) == .diskFull)
        #expect(ErrorCode(classifying: JPEGError(stage: "rows", message: "bad call")) == .encodeFailed)
        #expect(ErrorCode.diskFull.isExhaustion && ErrorCode.outOfResources.isExhaustion && !ErrorCode.writeFailed.isExhaustion)
    }

    @Test("Other leaf errors; a PipelineError keeps the code of what it wraps; unknown types say so")
    func otherErrors() {
        #expect(ErrorCode(classifying: LimitError(width: 60000, height: 60000, maxPixels: 256_000_000)) == .limitExceeded)
        #expect(ErrorCode(classifying: SourceError(reason: "cannot open: Permission denied")) == .sourceUnreadable)
        #expect(ErrorCode(classifying: SourceError.notRegular(S_IFIFO)) == .notARegularFile)
        #expect(ErrorCode(classifying: SourceError.notRegular(S_IFDIR, throughLink: true)) == .notARegularFile)
        #expect(ErrorCode(classifying: CorruptJPEGError(reason: "x")) == .corruptJPEG)
        #expect(ErrorCode(classifying: OtherImageError(item: 2, output: "a-2.jpg", underlying: HEIFError.missingBox("ipma"))) == .corruptContainer)
        let wrapped = PipelineError(.parse, HEIFError.truncatedBox("file"))
        #expect(wrapped.code == .truncated && wrapped.stage == .parse)
        #expect(wrapped.description == "'file' box is truncated")
        #expect(ErrorCode(classifying: wrapped) == .truncated)
        struct Unknown: Error {}
        #expect(ErrorCode(classifying: Unknown()) == .unclassified)
    }

    @Test("Codes are stable tokens: lowercase words joined by hyphens, all distinct")
    func tokens() {
        let raw = ErrorCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        #expect(raw.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } })
    }
}
