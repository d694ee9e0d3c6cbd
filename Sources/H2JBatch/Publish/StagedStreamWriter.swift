#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JDigest
import H2JSupport

/// `-o -`: the JPEG is written to an anonymous temp file first and copied to the stream
/// only once it is complete, so a failure mid-file puts nothing on stdout (never a
/// truncated JPEG), and memory stays bounded (the copy moves 1 MiB at a time).
///
/// The temp file is in `$TMPDIR` (default `/tmp`) and unlinked as soon as it is open, so
/// nothing is left whatever happens to the process.
enum StagedStreamWriter {
    static let chunkBytes = 1 << 20

    /// Runs `body` on the temp file's descriptor, then copies it to `stream`. Returns the
    /// bytes written and their SHA-256, hashed as they are copied.
    static func write(to stream: Int32, _ body: (Int32) throws -> Void) throws -> WrittenOutput {
        let fd = try openAnonymousTemp()
        defer { close(fd) }
        try body(fd)
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw WriteError.system("-", "cannot rewind the staged output") }
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        var total = 0
        var hash = SHA256()
        while true {
            let count = POSIX.retryingInterrupts { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            guard count >= 0 else { throw WriteError.system("-", "cannot read the staged output") }
            if count == 0 { return WrittenOutput(bytes: total, sha256: SHA256.hex(hash.finalize())) }
            let piece = Array(chunk[0..<count])
            hash.update(piece)
            try POSIX.writeAll(piece, to: stream, path: "-")
            total += count
        }
    }

    /// A new file in `$TMPDIR` under a random name, created exclusively and unlinked at
    /// once, both through `PathCalls` (paths of any length).
    private static func openAnonymousTemp() throws -> Int32 {
        let directory = getenv("TMPDIR").map { PathBytes.string(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        for _ in 0..<100 {
            let path = Path.join(directory, ".heic2jpg-stdout-" + String(UInt64.random(in: .min ... .max), radix: 36))
            let fd = POSIX.openFile(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 {
                _ = POSIX.removeFile(path)
                return fd
            }
            guard errno == EEXIST else { break }
        }
        throw WriteError.system(directory, "cannot create a temp file for stdout")
    }
}
