#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// Test only (`HandOffRaceEndToEndTests`, `OutputDirectoriesEndToEndTests`): `HEIC2JPG_TEST_PAUSE=POINT:DIR` stops the parent at
/// `POINT` for every source, so a test can change the source in a window it could not
/// otherwise hit every time. There the parent writes the source's path and a newline to
/// the FIFO `DIR/reached`, then reads the FIFO `DIR/resume` to its end. Unset, and in a
/// release build (`TestHook`), nothing happens and nothing is opened.
package enum TestPause {
    package enum Point: String, Sendable {
        /// The worker asked for the primary's temp file: it has opened and read the
        /// source, and waits for the parent (run with `-j 1`).
        case converting
        /// The primary's temp file is written and not yet published: a test kills the run
        /// there to leave it behind (`OutputDirectoriesEndToEndTests`).
        case staged
        /// The outputs are verified and recorded; the source is about to be proved and handed off.
        case handingOff = "handing-off"
    }

    private static let setting: (point: String, directory: String)? = {
        guard let value = TestHook.pause.value,
              let colon = value.firstIndex(of: ":") else { return nil }
        return (String(value[..<colon]), String(value[value.index(after: colon)...]))
    }()

    /// Waits at `point` for the test, when the test asked to pause there.
    static func reach(_ point: Point, source: String) {
        guard let setting, setting.point == point.rawValue else { return }
        let reached = POSIX.openFile(Path.join(setting.directory, "reached"), O_WRONLY | O_CLOEXEC)
        guard reached >= 0 else { return }
        try? POSIX.writeAll(PathBytes.bytes(source) + [UInt8(ascii: "\n")], to: reached, path: "reached")
        close(reached)
        let resume = POSIX.openFile(Path.join(setting.directory, "resume"), O_RDONLY | O_CLOEXEC)
        guard resume >= 0 else { return }
        _ = try? POSIX.readToEnd(resume)
        close(resume)
    }
}
