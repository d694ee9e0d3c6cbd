#if canImport(Glibc)
import Glibc
#endif

/// Random access to the bytes of one input, so a parser can read just the ranges it
/// needs instead of the whole file.
package protocol ByteSource: Sendable {
    /// Total size in bytes.
    var size: Int { get }
    /// Exactly `count` bytes at `offset`, or an error when the range is not all there
    /// (`outOfRange`) or cannot be read (`system`, `endOfFile`).
    func read(at offset: Int, count: Int) throws(ReadError) -> [UInt8]
}

/// Bytes already in memory (stdin input, tests).
package struct MemoryByteSource: ByteSource {
    package let bytes: [UInt8]
    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package var size: Int { bytes.count }
    package func read(at offset: Int, count: Int) throws(ReadError) -> [UInt8] {
        guard let slice = ByteReader(bytes).slice(offset, count) else { throw .outOfRange(offset: offset, count: count, size: size) }
        return slice
    }
}

/// An open file read with `pread`; the descriptor is owned by the caller.
package struct FileByteSource: ByteSource {
    package let fd: Int32
    package let size: Int
    package init(fd: Int32, size: Int) {
        self.fd = fd
        self.size = size
    }
    package func read(at offset: Int, count: Int) throws(ReadError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw .outOfRange(offset: offset, count: count, size: size)
        }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = POSIX.retryingInterrupts {
                buffer.withUnsafeMutableBytes { raw in pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done)) }
            }
            if n < 0 { throw .system(SystemError()) }
            guard n > 0 else { throw .endOfFile(offset: offset + done) }
            done += n
        }
        return buffer
    }
}
