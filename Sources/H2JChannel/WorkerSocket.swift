#if canImport(Glibc)
import Glibc
#endif
import CWorkerIPC
import H2JJob
import H2JSupport

/// Why a frame could not be sent or received.
package enum WorkerSocketError: Error, CustomStringConvertible {
    /// The other end closed the socket (a worker that died, a parent that went away).
    case closed
    /// The deadline passed first.
    case timedOut
    /// A system call failed.
    case system(SystemError)
    /// The frame does not decode, or is larger than this end accepts.
    case malformed(WireError)

    package var description: String {
        switch self {
        case .closed: "the worker socket closed"
        case .timedOut: "timed out"
        case .system(let error): "worker socket: \(error)"
        case .malformed(let error): "\(error)"
        }
    }
}

/// One end of the socket between the parent and a worker process: each message is a
/// frame of a 4-byte little-endian length and the encoded message, with at most one
/// descriptor attached (`output` carries the temp file's).
package struct WorkerSocket: Sendable {
    /// The descriptor a worker finds its socket on.
    package static let workerDescriptor: Int32 = 3

    package let fd: Int32
    /// Largest frame this end accepts: a worker's messages are small; the parent's `job`
    /// carries stdin's bytes.
    package let maxFrame: Int

    package init(fd: Int32, maxFrame: Int) {
        (self.fd, self.maxFrame) = (fd, maxFrame)
    }

    /// Sends `message`, with `descriptor` attached when it is not -1.
    package func send(_ message: WorkerMessage, passing descriptor: Int32 = -1) throws(WorkerSocketError) {
        let payload = message.encoded()
        guard payload.count <= Int(UInt32.max) else { throw .malformed(WireError(reason: "a \(payload.count)-byte frame")) }
        let length = UInt32(payload.count)
        let frame = (0..<4).map { UInt8(truncatingIfNeeded: length >> UInt32(8 * $0)) } + payload
        let sent = frame.withUnsafeBytes { h2j_send(fd, $0.baseAddress, $0.count, descriptor) }
        guard sent == 0 else { throw errno == EPIPE || errno == ECONNRESET ? .closed : .system(SystemError()) }
    }

    /// The next message and the descriptor that came with it (the caller owns it).
    /// Waits until `deadline` (monotonic seconds; nil = for ever); while waiting, whatever
    /// `drain`'s descriptor yields (the worker's stderr) is passed to its handler.
    package func receive(until deadline: Double? = nil, drain: StreamDrain? = nil) throws(WorkerSocketError)
        -> (message: WorkerMessage, descriptor: Int32?) {
        var descriptor: Int32?
        do throws(WorkerSocketError) {
            let header = try read(4, until: deadline, drain: drain, descriptor: &descriptor)
            let length = header.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            guard length >= 1, length <= maxFrame else { throw WorkerSocketError.malformed(WireError(reason: "a \(length)-byte frame")) }
            let payload = try read(length, until: deadline, drain: drain, descriptor: &descriptor)
            do {
                return (try WorkerMessage.decode(payload), descriptor)
            } catch {
                throw WorkerSocketError.malformed(error)
            }
        } catch {
            if let descriptor { close(descriptor) }
            throw error
        }
    }

    /// Exactly `count` bytes (fewer only by throwing).
    private func read(_ count: Int, until deadline: Double?, drain: StreamDrain?,
                      descriptor: inout Int32?) throws(WorkerSocketError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            if deadline != nil || drain != nil { try waitReadable(until: deadline, drain: drain) }
            var received: Int32 = -1
            let n = bytes.withUnsafeMutableBytes { h2j_receive(fd, $0.baseAddress! + done, count - done, &received) }
            if received >= 0 {
                if descriptor == nil { descriptor = received } else { close(received) }
            }
            if n == 0 { throw .closed }
            if n < 0 { throw errno == ECONNRESET ? .closed : .system(SystemError()) }
            done += n
        }
        return bytes
    }

    /// Polls the socket (and `drain`) until the socket is readable or closed.
    private func waitReadable(until deadline: Double?, drain: StreamDrain?) throws(WorkerSocketError) {
        while true {
            var waits = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if let drain, drain.isOpen { waits.append(pollfd(fd: drain.fd, events: Int16(POLLIN), revents: 0)) }
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - POSIX.monotonicSeconds()
                guard left > 0 else { throw .timedOut }
                timeout = Int32(min(left * 1000 + 1, 60_000))
            }
            let ready = poll(&waits, nfds_t(waits.count), timeout)
            if ready < 0 {
                guard errno == EINTR else { throw .system(SystemError()) }
                continue
            }
            if waits.count > 1, waits[1].revents != 0 { drain?.readAvailable() }
            if waits[0].revents != 0 { return }
        }
    }
}

/// A pipe read whenever it has data, so the process writing it never blocks: the
/// worker's stderr, whose last line names the cause when the worker dies.
package final class StreamDrain {
    package let fd: Int32
    private(set) var isOpen = true
    /// The last complete non-empty line, and the line being written.
    private(set) var lastLine = ""
    private var partial: [UInt8] = []
    /// Longest line kept: a runaway line (a binary dump) is cut.
    package static let maxLine = 400

    package init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Reads what is there now without blocking (the descriptor is non-blocking).
    package func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while isOpen {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                take(chunk[0..<n])
                continue
            }
            if n == 0 || (errno != EINTR && errno != EAGAIN) { isOpen = false }
            if n < 0 && errno == EINTR { continue }
            return
        }
    }

    /// Everything left, up to end of file (after the writer died), waiting at most `seconds`.
    package func readToEnd(within seconds: Double) {
        let deadline = POSIX.monotonicSeconds() + seconds
        while isOpen {
            var wait = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = deadline - POSIX.monotonicSeconds()
            guard left > 0, poll(&wait, 1, Int32(left * 1000) + 1) > 0 else { return }
            readAvailable()
        }
    }

    /// The last line written, complete or not.
    package var tail: String {
        let pending = String(decoding: partial, as: UTF8.self).trimmingWhitespace
        return pending.isEmpty ? lastLine : pending
    }

    private func take(_ bytes: ArraySlice<UInt8>) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                let line = String(decoding: partial, as: UTF8.self).trimmingWhitespace
                if !line.isEmpty { lastLine = line }
                partial.removeAll(keepingCapacity: true)
            } else if partial.count < Self.maxLine {
                partial.append(byte)
            }
        }
    }

    /// Forgets what the previous job wrote.
    package func reset() {
        lastLine = ""
        partial.removeAll()
    }
}
