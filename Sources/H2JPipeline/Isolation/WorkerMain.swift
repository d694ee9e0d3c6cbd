#if canImport(Glibc)
import Glibc
#endif
import H2JDe265
import H2JOutputPlan
import H2JSupport
import H2JTiles

/// A worker process's whole life: limits on itself, the seccomp sandbox, then job
/// after job from the parent until the socket closes.
///
/// The worker opens sources read-only by path and writes only to descriptors the parent
/// hands it, so the sandbox can forbid creating files, sockets and programs.
package enum WorkerMain {
    /// The first argument that makes the executable a worker.
    package static let argument = "--internal-worker"

    /// Runs the worker; `arguments` follow `argument`. Returns the exit
    /// status: 0 when the parent closed the socket.
    package static func run(_ arguments: ArraySlice<String>) -> Int32 {
        guard let limits = WorkerLimits(arguments: arguments) else {
            POSIX.writeLine("heic2jpg: \(argument) is started by heic2jpg itself", to: STDERR_FILENO)
            return 64
        }
        return run(limits)
    }

    /// The worker's life with `limits` (a forked worker starts here).
    static func run(_ limits: WorkerLimits) -> Int32 {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        var data = rlimit(rlim_cur: rlim_t(limits.memoryBytes), rlim_max: rlim_t(limits.memoryBytes))
        setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &data)
        _ = WorkerSandbox.enter()
        let socket = WorkerSocket(fd: WorkerProcess.socketDescriptor, maxFrame: Int(UInt32.max))
        let decoders = TileDecoderPool.libde265()
        while true {
            guard let (message, descriptor) = try? socket.receive() else { return 0 }
            if let descriptor { close(descriptor) }
            if case .measure(let work, let outputs) = message {
                if limits.timeoutSeconds > 0 { alarm(UInt32(limits.timeoutSeconds + 30)) }
                let measured = Result { () throws(CompareError) in try LumaMeasurement.measure(work.job, outputs: outputs, options: work.options) }
                guard (try? socket.send(.measured(measured))) != nil else { return 0 }
                alarm(0)
                continue
            }
            guard case .job(let work) = message else { return 70 }
            // Should the parent be gone, the worker still stops a while after --timeout.
            if limits.timeoutSeconds > 0 { alarm(UInt32(limits.timeoutSeconds + 30)) }
            let converter = Converter(options: work.options, decoders: decoders, destination: ParentOutput(socket: socket),
                                      onStage: { stage, engine, image in try? socket.send(.stage(stage, engine, image: image)) })
            let result = converter.run(work.job)
            guard (try? socket.send(.result(result))) != nil else { return 0 }
            alarm(0)
        }
    }
}

/// A worker's output: it asks the parent for the temp file (`ready`), writes to the
/// descriptor that comes back, and says when the file is complete (`written`).
struct ParentOutput: OutputDestination {
    let socket: WorkerSocket

    func write(_ job: Job, name: OutputName, attributes: OutputAttributes?,
               _ body: (Int32) throws -> Void) throws -> WrittenOutput {
        try socket.send(.ready(name, attributes))
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
            throw error
        }
        try socket.send(.written)
        return WrittenOutput(bytes: Int(info.st_size))
    }
}
