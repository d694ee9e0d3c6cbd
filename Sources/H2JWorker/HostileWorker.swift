#if DEBUG
#if canImport(Glibc)
import Glibc
#endif
import CWorkerIPC
import H2JChannel
import H2JConvert
import H2JJPEG
import H2JJob
import H2JOutputPlan
import H2JSupport

/// Debug builds only (`TestHook.hostileWorker`): a worker taken over, which answers a job
/// with crafted frames instead of converting, so `HostileWorkerEndToEndTests` can show the
/// parent refuses each and applies nothing. A release build has no such worker.
enum HostileWorker: String, CaseIterable {
    /// `ready` with the source's attributes after the name, as the trusting wire carried
    /// them (mode 07777, owner 4242, the directory /etc), then the file written and the
    /// source converted.
    case attributes
    /// `ready` naming an output outside the output's directory (`/../../etc/x`).
    case outputPath = "output-path"
    /// The primary written and `result` listing a second output at a path of its choosing.
    case unstagedOutput = "unstaged-output"
    /// The primary written and `result` naming another source and output.
    case otherSource = "other-source"
    /// A `result` that claims 2^40 warnings.
    case hugeCount = "huge-count"
    /// A frame whose header announces 4 GiB.
    case hugeFrame = "huge-frame"
    /// A frame cut short: its header announces 100 bytes, 10 follow, then the worker exits.
    case truncatedFrame = "truncated-frame"
    /// The primary written as a JPEG with no image (SOI, EOI) and reported converted at
    /// the source's size, complete: what only the hand-off's decode of the published
    /// output, in another worker conversation, can catch.
    case undecodableOutput = "undecodable-output"
    /// Jobs converted as usual, but `compare --html`'s pictures forged (`forged`): markup
    /// where the source's preview should be, which no page may carry.
    case forgedPictures = "forged-pictures"

    /// `measurement` with the source's preview replaced by a script.
    static func forged(_ measurement: LumaMeasurement) -> LumaMeasurement {
        guard let pictures = measurement.pictures else { return measurement }
        return LumaMeasurement(width: measurement.width, height: measurement.height, decibels: measurement.decibels,
                               pictures: ComparisonPictures(source: Array(forgedPreview.utf8), outputs: pictures.outputs))
    }

    static let forgedPreview = "<script>document.title='forged'</script>"

    /// The case the hook names, if any.
    static var chosen: HostileWorker? { TestHook.hostileWorker.value.flatMap(HostileWorker.init(rawValue:)) }

    /// Answers `job` on `socket` as this case does. Returns false when the worker should
    /// exit, true to take the next job, nil when the job is to be converted as usual
    /// (`forgedPictures` lies only when measuring).
    func answer(_ job: ConversionJob, on socket: WorkerSocket) -> Bool? {
        let source = job.source.display, output = job.output.display
        switch self {
        case .attributes:
            // Then on as the trusting wire went: the file written, the source converted.
            guard sendRaw(Self.trustingReady, on: socket), writeFile(on: socket) else { return false }
            var result = ConversionResult(source: source, output: output, status: .converted)
            result.outputs = [OutputFile(name: .primary, path: output, item: 1, width: 1, height: 1, bytes: 4)]
            return (try? socket.send(.result(result))) != nil
        case .outputPath:
            var frame = WireWriter()
            frame.u8(WorkerMessage.ready(.primary).encoded()[0])
            frame.string("/../../etc/x")
            return sendRaw(frame.bytes, on: socket)
        case .unstagedOutput, .otherSource:
            guard writePrimary(on: socket) else { return false }
            var result = ConversionResult(source: source, output: output, status: .converted)
            result.outputs = [OutputFile(name: .primary, path: output, item: 1, width: 1, height: 1, bytes: 4)]
            if self == .unstagedOutput {
                result.outputs.append(OutputFile(name: .image(2), path: "/etc/heic2jpg-hostile", item: 2, width: 1, height: 1, bytes: 4))
            } else {
                result.source = "/etc/shadow"
                result.output = "/etc/heic2jpg-hostile"
            }
            return (try? socket.send(.result(result))) != nil
        case .hugeCount:
            var frame = WireWriter()
            frame.u8(WorkerMessage.result(ConversionResult(source: source, output: output, status: .converted)).encoded()[0])
            frame.string(source)
            frame.optional(output) { $0.string($1) }
            frame.string(ConversionResult.Status.converted.rawValue)
            frame.optional(String?.none) { $0.string($1) }
            frame.optional(String?.none) { $0.string($1) }
            for _ in 0..<3 { frame.optional(Int?.none) { $0.int($1) } }
            for _ in 0..<3 { frame.bool(false) }
            frame.int(1 << 40)
            return sendRaw(frame.bytes, on: socket)
        case .undecodableOutput:
            guard writePrimary(on: socket) else { return false }
            var result = ConversionResult(source: source, output: output, status: .converted)
            (result.width, result.height, result.bytes) = (256, 192, 4)
            result.metadata = MetadataKept(exif: true, xmp: true, icc: true)
            result.outputs = [OutputFile(name: .primary, path: output, item: 1, width: 256, height: 192, bytes: 4)]
            return (try? socket.send(.result(result))) != nil
        case .hugeFrame:
            return writeFrame(header: UInt32.max, body: [1])
        case .truncatedFrame:
            _ = writeFrame(header: 100, body: [UInt8](repeating: 1, count: 10))
            return false
        case .forgedPictures:
            return nil
        }
    }

    /// The primary's `ready` as the trusting wire framed it: the name, then the source's
    /// attributes (times, mode 07777, owner 4242, the directory /etc).
    static var trustingReady: [UInt8] {
        var frame = WireWriter()
        frame.u8(WorkerMessage.ready(.primary).encoded()[0])
        frame.string(OutputName.primary.suffix)
        frame.bool(true)
        for value in [0, 0, 0, 0, 0o7777, 4242, 4242] { frame.int(value) }
        frame.string("/etc")
        return frame.bytes
    }

    /// Asks for the primary's file and writes a JPEG's first and last markers into it.
    private func writePrimary(on socket: WorkerSocket) -> Bool {
        (try? socket.send(.ready(.primary))) != nil && writeFile(on: socket)
    }

    /// Takes the file the parent hands over and writes a JPEG's first and last markers into it.
    private func writeFile(on socket: WorkerSocket) -> Bool {
        guard let (message, descriptor) = try? socket.receive(), case .output = message, let descriptor else { return false }
        defer { close(descriptor) }
        guard (try? POSIX.writeAll([0xFF, 0xD8, 0xFF, 0xD9], to: descriptor, path: "hostile")) != nil else { return false }
        return (try? socket.send(.written)) != nil
    }

    /// Sends `payload` as one frame, whatever it holds.
    private func sendRaw(_ payload: [UInt8], on socket: WorkerSocket) -> Bool {
        writeFrame(header: UInt32(payload.count), body: payload)
    }

    /// Writes a frame header announcing `header` bytes, then `body`, to the worker's socket.
    private func writeFrame(header: UInt32, body: [UInt8]) -> Bool {
        let frame = (0..<4).map { UInt8(truncatingIfNeeded: header >> UInt32(8 * $0)) } + body
        return frame.withUnsafeBytes { h2j_send(WorkerSocket.workerDescriptor, $0.baseAddress, $0.count, -1) } == 0
    }
}
#endif
