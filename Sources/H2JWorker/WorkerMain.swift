#if canImport(Glibc)
import Glibc
#endif
import H2JChannel
import H2JConvert
import H2JJob
import H2JDigest
import H2JOutputPlan
import H2JSupport
import H2JTiles

/// A worker process's whole life: limits on itself, the sandbox, then job after job from
/// the parent until the socket closes.
///
/// The worker opens nothing: each source's descriptor comes with its job, and each
/// output's when the worker asks for it, so the sandbox forbids every path.
package enum WorkerMain {
    /// What a forked worker runs, for the parent's `WorkerSupervisor`.
    package static let program = WorkerProgram(main: run)

    /// Runs the worker; `arguments` follow `WorkerLimits.workerArgument`: the parent's
    /// pid, then the limits. Returns the exit status: 0 when the parent closed the socket.
    package static func run(_ arguments: ArraySlice<String>) -> Int32 {
        guard let parent = arguments.first.flatMap({ pid_t($0) }), parent > 0,
              let limits = WorkerLimits(arguments: arguments.dropFirst()) else {
            POSIX.writeLine("heic2jpg: \(WorkerLimits.workerArgument) is started by heic2jpg itself", to: STDERR_FILENO)
            return 64
        }
        return run(limits, parent: parent)
    }

    /// The worker's life with `limits`, started by `parent` (a forked worker starts here).
    @Sendable static func run(_ limits: WorkerLimits, parent: pid_t) -> Int32 {
        var data = rlimit(rlim_cur: rlim_t(limits.memoryBytes), rlim_max: rlim_t(limits.memoryBytes))
        setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &data)
        // What reads a file must happen before the sandbox: libcrypto loads its
        // configuration (openssl.cnf) on the first digest, glibc the time zone
        // (/etc/localtime) on the first local time.
        _ = SHA256.digest([])
        tzset()
        // dlopen reads the library's files: the tile decoder is loaded here, not in the sandbox.
        let decoders = limits.decoder.pool
        guard WorkerSandbox.enter(parent: parent, limits: limits) else {
            POSIX.writeLine("heic2jpg: a decoder process cannot enter its sandbox: \(POSIX.lastError())", to: STDERR_FILENO)
            return 71
        }
        let socket = WorkerSocket(fd: WorkerSocket.workerDescriptor, maxFrame: Int(UInt32.max))
        while true {
            guard let (message, descriptor) = try? socket.receive() else { return 0 }
            // Should the parent be gone, the worker still stops a while after --timeout.
            if limits.timeoutSeconds > 0 { alarm(UInt32(limits.timeoutSeconds + 30)) }
            let answer: WorkerMessage
            switch message {
            case .job(let work):
                guard let job = try? work.job(adopting: descriptor) else { return 70 }
                #if DEBUG
                if let answered = HostileWorker.chosen?.answer(job, on: socket) {
                    guard answered else { return 0 }
                    continue
                }
                #endif
                var options = work.options
                options.maxMemory = limits.memoryBytes
                let converter = Converter(options: options, decoders: decoders,
                                          destination: ParentOutput(socket: socket, limit: limits.outputBytes),
                                          onStage: { stage, engine, image in try? socket.send(.stage(stage, engine, image: image)) })
                answer = .result(converter.run(job))
            case .measure(let work, let outputs, let pictures):
                guard let job = try? work.job(adopting: descriptor) else { return 70 }
                var measured = Result { () throws(CompareError) in
                    try LumaMeasurement.measure(job, outputs: outputs, options: work.options, pictures: pictures)
                }
                #if DEBUG
                if HostileWorker.chosen == .forgedPictures { measured = measured.map(HostileWorker.forged) }
                #endif
                answer = .measured(measured)
            case .check:
                guard let descriptor else { return 70 }
                answer = .checked(OutputCheck(decoding: descriptor))
            default:
                if let descriptor { close(descriptor) }
                return 70
            }
            guard (try? socket.send(answer)) != nil else { return 0 }
            alarm(0)
        }
    }
}

/// A worker's output: it asks the parent for the temp file (`ready`), writes to the
/// descriptor that comes back, and says when the file is complete (`written`).
/// A write that reached `limit` (RLIMIT_FSIZE) fails the file as too large, not as a
/// resource that ran out.
struct ParentOutput: OutputDestination {
    let socket: WorkerSocket
    let limit: Int

    /// `attributes` stay here: the parent takes them from its own `fstat` of the source.
    func write(_ job: ConversionJob, name: OutputName, attributes: OutputAttributes?,
               _ body: (Int32) throws -> Void) throws -> WrittenOutput {
        try socket.send(.ready(name))
        let (message, descriptor) = try socket.receive()
        guard case .output = message, let descriptor else {
            if let descriptor { close(descriptor) }
            throw WriteError(path: job.output.display, reason: "the parent has no output file for it")
        }
        defer { close(descriptor) }
        var info = stat()
        do {
            try body(descriptor)
            guard fstat(descriptor, &info) == 0 else { throw WriteError.system(job.output.display, "fstat") }
        } catch {
            try? socket.send(.dropped)
            guard fstat(descriptor, &info) == 0, info.st_size >= limit else { throw error }
            throw OutputSizeError(limit: limit)
        }
        try socket.send(.written)
        return WrittenOutput(bytes: Int(info.st_size))
    }
}

/// An output that reached the worker's file size limit (`WorkerLimits.outputBytes`): no
/// conversion within the pixel limit writes that much, so the file is refused like a bomb.
struct OutputSizeError: Error, CustomStringConvertible {
    let limit: Int
    var description: String { "output reached \(limit) bytes, the most an image within the pixel limit can need" }
}

extension OutputSizeError: CodedError {
    var code: ErrorCode { .limitExceeded }
}
