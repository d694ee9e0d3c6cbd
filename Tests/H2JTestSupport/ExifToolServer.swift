import Foundation
import H2JSupport

/// One exiftool kept running in `-stay_open` mode, so a test process pays perl's
/// start-up and module loading (about 0.3 s of CPU a call, a third of the suite's
/// exiftool time) once per server rather than once per call.
///
/// Protocol (exiftool(1), `-stay_open`): each argument on its own line on standard
/// input, then `-echo4 {doneN ${status}}` and `-executeN`. exiftool answers with the
/// command's standard output followed by `{readyN}`, and its standard error followed by
/// `{doneN STATUS}`, where STATUS is the exit status a separate run would have had.
///
/// exiftool does not exit when its argument pipe closes (it keeps polling it), so it
/// runs behind `cat`: when this process exits, however it exits, `cat` sees the end of
/// its input and the shell then tells exiftool `-stay_open False`.
///
/// Not thread-safe: `ExifTool` hands each server to one caller at a time.
final class ExifToolServer {
    /// A server that stopped answering, or answered out of protocol.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle
    private let errors: FileHandle
    private var sequence = 0

    /// Whether `argument` survives one line of an argument file unchanged: exiftool
    /// trims white space, skips blank lines and takes `#` lines as comments.
    static func canPass(_ argument: String) -> Bool {
        guard let first = argument.first, let last = argument.last else { return false }
        return first != "#" && !first.isWhitespace && !last.isWhitespace && !argument.contains(where: \.isNewline)
    }

    init(executable: String) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "(cat; printf '%s\\n' -stay_open False) | exec \"$0\" -stay_open True -@ -", executable]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
        errors = stderr.fileHandleForReading
    }

    deinit { try? input.close() }

    /// Runs one exiftool command; every argument must pass `canPass`.
    func run(_ arguments: [String]) throws -> ChildProcess.Output {
        sequence += 1
        let ready = Array("{ready\(sequence)}\n".utf8)
        let done = Array("{done\(sequence) ".utf8)
        let request = (arguments + ["-echo4", "{done\(sequence) ${status}}", "-execute\(sequence)"]).map { $0 + "\n" }.joined()
        try input.write(contentsOf: Data(request.utf8))

        var stdout: [UInt8] = [], stderr: [UInt8] = []
        var status: Int32?
        while !stdout.ends(with: ready) || status == nil {
            var descriptors = [pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: errors.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else {
                throw Failure(description: "exiftool server: poll failed: \(POSIX.describe(errno))")
            }
            if descriptors[0].revents != 0 { try Self.read(output.fileDescriptor, into: &stdout) }
            if descriptors[1].revents != 0 {
                try Self.read(errors.fileDescriptor, into: &stderr)
                status = Self.status(in: stderr, after: done)
            }
        }
        let text = String(decoding: stderr[..<stderr.lastRange(of: done)!.lowerBound], as: UTF8.self)
        return ChildProcess.Output(status: status!, stdout: Data(stdout.dropLast(ready.count)), stderr: text)
    }

    /// Appends what `descriptor` has; the end of file means the server died.
    private static func read(_ descriptor: Int32, into buffer: inout [UInt8]) throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = POSIX.retryingInterrupts { Glibc.read(descriptor, &chunk, chunk.count) }
        guard count > 0 else {
            throw Failure(description: "exiftool server: its output closed (\(count < 0 ? POSIX.describe(errno) : "end of file"))")
        }
        buffer += chunk[..<count]
    }

    /// The status of a finished command: `stderr` ends with `{doneN STATUS}\n`.
    private static func status(in stderr: [UInt8], after done: [UInt8]) -> Int32? {
        guard stderr.ends(with: Array("}\n".utf8)), let marker = stderr.lastRange(of: done) else { return nil }
        return Int32(String(decoding: stderr[marker.upperBound..<(stderr.count - 2)], as: UTF8.self))
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }

    func lastRange(of pattern: [UInt8]) -> Range<Int>? {
        guard count >= pattern.count else { return nil }
        for start in stride(from: count - pattern.count, through: 0, by: -1) where self[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start..<(start + pattern.count)
        }
        return nil
    }
}
