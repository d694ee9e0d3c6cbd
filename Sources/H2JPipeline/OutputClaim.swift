import H2JSupport

/// One output path's ownership within a run, shared by every input that maps to it.
///
/// The first input to claim a path owns it. A later claimant converts as usual but,
/// before publishing, waits for the earlier claim: if that one produced (or already
/// had) the output, the later one fails with a collision reason and writes nothing;
/// if it failed, the later one may publish. So a broken `a.heic` never blocks a good
/// `a.HEIF`, a broken second input still reports its own problem, and the outcome does
/// not depend on thread timing.
package final class OutputClaim: @unchecked Sendable {
    /// The source that claimed first (for messages).
    package let owner: String
    /// The claim made before this one on the same path, if any.
    let previous: OutputClaim?
    private let condition = Lock()
    private var owned: Bool?

    init(owner: String, previous: OutputClaim?) {
        self.owner = previous?.owner ?? owner
        self.previous = previous
    }

    /// Records whether this claimant itself produced (or kept) the output. Called exactly once.
    func resolve(owned: Bool) {
        condition.lock()
        self.owned = owned
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until this claim and every earlier one are resolved; true when any of
    /// them produced the output. Cannot deadlock: a claim is always submitted to the
    /// pool before any claim that waits on it.
    func waitOwned() -> Bool {
        condition.lock()
        while owned == nil { condition.wait() }
        let mine = owned ?? false
        condition.unlock()
        return mine || (previous?.waitOwned() ?? false)
    }
}

/// A later input's output was produced by an earlier input of the same run.
struct CollisionError: Error, CustomStringConvertible {
    let output: String
    let owner: String
    var description: String { "output \(output) is already the output of \(owner) in this run; rename one of them" }
}
