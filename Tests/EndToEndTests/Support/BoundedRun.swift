import Foundation
import H2JTestSupport

/// The built heic2jpg run with a deadline, for runs that must not hang: one still going
/// at the deadline is stopped (SIGTERM, then SIGKILL) and comes back with no status,
/// instead of hanging the test. `redirections` (sh syntax: `>&-`, `2>&-`, `1</dev/null`)
/// are applied by `sh` just before it execs heic2jpg, for runs with a standard stream
/// closed or read-only.
enum BoundedRun {
    struct Outcome {
        /// The exit status; nil when the run was still going at the deadline.
        let status: Int32?
        let stdout: Data
        let stderr: String
    }

    static func run(_ arguments: [String], redirections: String = "", stdin: Data? = nil,
                    within seconds: Double = 60, workingDirectory: String? = nil) throws -> Outcome {
        let output = try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirections)", Tool.binary] + arguments,
                                          stdin: stdin, workingDirectory: workingDirectory, within: seconds)
        return Outcome(status: output.stopped ? nil : output.status, stdout: output.stdout, stderr: output.stderr)
    }
}
