import H2JState
import H2JSupport

/// Whether a run a state records as unfinished is under way now: on this machine, with
/// the lock beside its state (`STATE.lock`) held by the run's own process, as
/// `/proc/locks` says. A run killed, or one on another machine, is not under way here;
/// a PID reused since cannot pass for it, since only the run holds that lock.
enum RunUnderWay {
    static func check(_ run: StateReport.Run) -> Bool {
        guard run.exitCode == nil, run.finishedNanoseconds == nil, run.host == PathBytes.string(POSIX.hostNameBytes()) else { return false }
        return RunLock.holderPID(ofFile: run.state + ".lock").map { Int($0) == run.pid } ?? false
    }

    /// How a run ended, in a few words: "exit N", "under way (pid P)", or "unfinished"
    /// with what that may mean.
    static func end(_ run: StateReport.Run) -> String {
        if let code = run.exitCode { return "exit \(code)" }
        return check(run) ? "under way (pid \(run.pid))" : "unfinished (killed, or under way on another machine)"
    }
}
