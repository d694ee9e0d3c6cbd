import H2JJob
import H2JSupport

/// One claimant's place in the queue for one output path within a run.
///
/// The first claimant of a path owns it. A later claimant converts as usual but, before
/// publishing, waits for the claimants before it: if one of them produced (or already
/// had) the output, the later one fails with a collision and writes nothing; if they
/// all failed, it may publish. So a broken `a.heic` never blocks a good `a.HEIF`, a
/// broken second input still reports its own problem, and the outcome does not depend
/// on thread timing.
package final class OutputReservation: @unchecked Sendable {
    /// The source that claimed the path first (for messages).
    package let owner: String
    /// The claim made before this one on the same path, if any.
    package let previous: OutputReservation?
    private let condition = Lock()
    private var published: Bool?

    init(owner: String, previous: OutputReservation?) {
        self.owner = previous?.owner ?? owner
        self.previous = previous
    }

    /// Records whether this claimant produced (or kept) the output. Called exactly once,
    /// when the claimant's job ends or is decided without one.
    package func settle(published: Bool) {
        condition.lock()
        self.published = published
        condition.broadcast()
        condition.unlock()
    }

    /// Without waiting: nil while this claim or an earlier one is unsettled, otherwise
    /// whether any of them produced the output.
    package var settledOutcome: Bool? {
        condition.lock()
        let mine = published
        condition.unlock()
        guard let mine else { return nil }
        if mine { return true }
        guard let previous else { return false }
        return previous.settledOutcome
    }

    /// Blocks until this claim and every earlier one are settled; true when any of them
    /// produced the output. Cannot deadlock: a claim is always submitted to the pool
    /// before any claim that waits on it.
    package func waitPublished() -> Bool {
        condition.lock()
        while published == nil { condition.wait() }
        let mine = published ?? false
        condition.unlock()
        return mine || (previous?.waitPublished() ?? false)
    }
}

/// An output path that another input of the same run produced.
package struct CollisionError: Error, Equatable, CustomStringConvertible {
    package let output: String
    package let owner: String
    package var description: String { "output \(output) is already the output of \(owner) in this run; rename one of them" }
}

/// A publish refused because the run was interrupted (the signal handler sealed the
/// publisher): nothing more is written.
package struct PublishInterrupted: Error, Equatable, CustomStringConvertible {
    package let path: String
    package var description: String { "cannot write \(path): interrupted" }
}

/// A file that heic2jpg did not write for this source is at the output path: found when
/// planning, or one that appeared there before the publishing rename (which then
/// refuses to replace it). Never overwritten, whatever `--overwrite` says.
package struct ForeignOutputError: Error, Equatable, CustomStringConvertible {
    package let output: String
    /// `--on-conflict suffix` was given, and every `NAME-N.jpg` it may try is taken too.
    package var suffixesTaken = false
    /// The handed-off original the file is the output of, when it is one.
    package var handedOffSource: String? = nil

    package init(output: String, suffixesTaken: Bool = false, handedOffSource: String? = nil) {
        self.output = output
        self.suffixesTaken = suffixesTaken
        self.handedOffSource = handedOffSource
    }

    package var description: String {
        let whose = handedOffSource.map { "is the output of \($0), an original handed off before (the only copy of that photo)" }
            ?? "exists and was not written by heic2jpg"
        let advice = suffixesTaken
            ? ", and --on-conflict suffix found every name up to -\(OutputPublisher.maxSuffix) taken"
            : " (--on-conflict suffix writes beside it)"
        return "\(output) \(whose); it is left alone\(advice)"
    }
}

extension CollisionError: CodedError {
    package var code: ErrorCode { .outputCollision }
}

extension ForeignOutputError: CodedError {
    package var code: ErrorCode { .outputNotOurs }
}

extension PublishInterrupted: CodedError {
    package var code: ErrorCode { .interrupted }
}
