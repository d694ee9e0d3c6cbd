#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JSupport

/// What the planner decided for one candidate.
package enum Plan: Sendable, Equatable {
    /// Work for the pool.
    case job(Job)
    /// Decided without decoding: skipped, planned (dry run) or failed.
    case done(ConversionResult)
    /// Not an image we handle, and not named like one: no result at all.
    case ignore
}

/// Decides, cheaply and in walk order, what happens to each file: sniff its content,
/// name its output, and refuse what must not be written.
///
/// Decisions: HEIF content → convert, whatever the name. JPEG content under a HEIF
/// extension → copy. Other content → failed when named like HEIF or named on the
/// command line, ignored otherwise. An output that another input of this run already
/// claimed → failed (never overwritten silently). An output that is the source itself,
/// or that holds HEIF data, is never written. An existing output → skipped unless
/// `overwrite`. Runs on one thread: claims are made in walk order, so "the second one
/// fails" is deterministic.
package final class Planner {
    private let options: ConversionOptions
    /// Holds the claims: the planner reserves each output in walk order.
    private let publisher: OutputPublisher

    package init(options: ConversionOptions, publisher: OutputPublisher) {
        self.options = options
        self.publisher = publisher
    }

    /// Plans one file found by the walker.
    package func plan(_ candidate: Candidate) -> Plan {
        let namedLikeHEIF = HEIFExtensions.matches(candidate.path)
        let source: SourceFile
        let format: ImageFormat
        do {
            source = try SourceFile(path: candidate.path)
            format = ImageFormat.sniff(try source.prefix(ImageFormat.sniffLength))
        } catch {
            guard candidate.explicit || namedLikeHEIF else { return .ignore }
            return .done(.failed(source: candidate.path, output: nil, .sourceUnreadable, error.description))
        }
        guard let action = Self.action(for: format, copyingJPEG: namedLikeHEIF) else {
            guard candidate.explicit || namedLikeHEIF else { return .ignore }
            return .done(Self.notHEIF(format, source: candidate.path, output: nil))
        }
        return decide(source: .path(candidate.path), file: source, bytes: nil,
                      output: .path(candidate.outputStem + ".jpg"), action: action)
    }

    /// Plans a file whose output goes to stdout (`-o -`): nothing to claim or skip.
    package func planToStandardOutput(_ candidate: Candidate) -> Plan {
        do {
            let source = try SourceFile(path: candidate.path)
            let format = ImageFormat.sniff(try source.prefix(ImageFormat.sniffLength))
            guard let action = Self.action(for: format, copyingJPEG: true) else {
                return .done(Self.notHEIF(format, source: candidate.path, output: "-"))
            }
            return decide(source: .path(candidate.path), file: source, bytes: nil, output: .standardStream, action: action)
        } catch {
            return .done(.failed(source: candidate.path, output: "-", .sourceUnreadable, error.description))
        }
    }

    /// Plans one image read from stdin, written to `output` (stdout or a path).
    package func planStandardInput(bytes: [UInt8], output: Endpoint) -> Plan {
        let format = ImageFormat.sniff(Array(bytes.prefix(ImageFormat.sniffLength)))
        guard let action = Self.action(for: format, copyingJPEG: true) else {
            return .done(Self.notHEIF(format, source: "-", output: nil))
        }
        return decide(source: .standardStream, file: nil, bytes: bytes, output: output, action: action)
    }

    /// Convert HEIF; copy JPEG where allowed (named like HEIF, or a stream); nil for anything else.
    static func action(for format: ImageFormat, copyingJPEG: Bool) -> Job.Action? {
        if format.isHEIF { return .convert }
        return format == .jpeg && copyingJPEG ? .copy : nil
    }

    static func notHEIF(_ format: ImageFormat, source: String, output: String?) -> ConversionResult {
        .failed(source: source, output: output, .notHEIF, "not a HEIF image: looks like \(format)")
    }

    /// Claims a path output and applies the never-overwrite rules; stdout needs neither.
    private func decide(source: Endpoint, file: SourceFile?, bytes: [UInt8]?, output: Endpoint, action: Job.Action) -> Plan {
        var reservation: OutputReservation?
        if case .path(let path) = output {
            let decision = reserveAndCheck(output: path, sourceName: source.display, source: file)
            if let refusal = decision.refusal { return refusal }
            reservation = decision.reservation
        }
        if options.dryRun { return .done(ConversionResult(source: source.display, output: output.display, status: .planned)) }
        return .job(Job(source: source, output: output, action: action, bytes: bytes, reservation: reservation))
    }

    /// Reserves `output` for this source and applies the never-overwrite rules.
    /// Returns the result to report when the job must not run (its reservation is then
    /// already settled), or the job's reservation.
    private func reserveAndCheck(output: String, sourceName: String, source: SourceFile?)
        -> (refusal: Plan?, reservation: OutputReservation) {
        let reservation = publisher.reserve(output, for: sourceName)
        let refusal = check(output: output, sourceName: sourceName, source: source, after: reservation.previous)
        if case .done(let result)? = refusal {
            // A refused input keeps the output only when it was skipped or planned.
            reservation.settle(published: result.status == .skipped || result.status == .planned)
        }
        return (refusal, reservation)
    }

    private func check(output: String, sourceName: String, source: SourceFile?, after: OutputReservation?) -> Plan? {
        func refuse(_ code: ErrorCode, _ reason: String) -> Plan {
            .done(.failed(source: sourceName, output: output, code, reason))
        }
        if let after, options.dryRun || !options.overwrite && pathExists(output) {
            return refuse(.outputCollision, CollisionError(output: output, owner: after.owner).description)
        }
        if let source, source.isSameFile(as: output) || output == source.path {
            return refuse(.outputIsSource, "output would overwrite the source itself; use --output to write elsewhere")
        }
        guard let existing = try? SourceFile(path: output) else { return nil }
        if existing.info.st_mode & S_IFMT == S_IFDIR {
            return refuse(.outputIsDirectory, "output \(output) exists and is a directory")
        }
        guard options.overwrite else {
            return .done(ConversionResult(source: sourceName, output: output, status: .skipped,
                                          reason: "output exists (use --overwrite to replace it)"))
        }
        if let prefix = try? existing.prefix(ImageFormat.sniffLength), ImageFormat.sniff(prefix).isHEIF {
            return refuse(.outputHoldsHEIF, "output \(output) exists and holds HEIF data; refusing to overwrite what may be a source")
        }
        return nil
    }

    private func pathExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
