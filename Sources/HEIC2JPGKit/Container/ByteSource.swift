#if canImport(Glibc)
import Glibc
#endif

/// Random access to the bytes of one input, so a parser can read just the ranges it
/// needs instead of the whole file.
public protocol ByteSource: Sendable {
    /// Total size in bytes.
    var size: Int { get }
    /// Exactly `count` bytes at `offset`, or an error when the range is not all there.
    func read(at offset: Int, count: Int) throws(HEIFError) -> [UInt8]
}

/// Bytes already in memory (stdin input, tests).
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var size: Int { bytes.count }
    public func read(at offset: Int, count: Int) throws(HEIFError) -> [UInt8] {
        guard let slice = ByteReader(bytes).slice(offset, count) else { throw .truncatedBox("file") }
        return slice
    }
}

/// An open file read with `pread`; the descriptor is owned by the caller.
public struct FileByteSource: ByteSource {
    public let fd: Int32
    public let size: Int
    public init(fd: Int32, size: Int) {
        self.fd = fd
        self.size = size
    }
    public func read(at offset: Int, count: Int) throws(HEIFError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { throw .truncatedBox("file") }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .truncatedBox("file") }
            done += n
        }
        return buffer
    }
}
