/// How a command ended, for the executable to turn into an exit code: commands know
/// what happened, only the CLI knows the numbers cron and CI expect.
package enum CommandStatus: Sendable, Equatable {
    /// Everything asked for was done.
    case succeeded
    /// At least one file failed (each failure was reported).
    case failed
}
