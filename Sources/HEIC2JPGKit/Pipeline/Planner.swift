#if canImport(Glibc)
import Glibc
#endif

/// What the planner decided for one candidate.
public enum Plan: Sendable, Equatable {
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
public final class Planner {
    private let options: ConversionOptions
    /// Output path → the latest claim on it (each claim waits on the one before).
    private var claims: [String: OutputClaim] = [:]

    public init(options: ConversionOptions) {
        self.options = options
    }

    /// Plans one file found by the walker.
    public func plan(_ candidate: Candidate) -> Plan {
        let namedLikeHEIF = HEIFExtensions.matches(candidate.path)
        let output = candidate.outputStem + ".jpg"
        let format: ImageFormat
        let source: SourceFile
        do {
            source = try SourceFile(path: candidate.path)
            format = ImageFormat.sniff(try source.prefix(ImageFormat.sniffLength))
        } catch {
            guard candidate.explicit || namedLikeHEIF else { return .ignore }
            return .done(ConversionResult(source: candidate.path, output: nil, status: .failed, reason: error.description))
        }
        let action: Job.Action
        switch format {
        case .heif:
            action = .convert
        case .jpeg where namedLikeHEIF:
            action = .copy
        default:
            guard candidate.explicit || namedLikeHEIF else { return .ignore }
            return .done(ConversionResult(source: candidate.path, output: nil, status: .failed,
                                          reason: "not a HEIF image: looks like \(format)"))
        }
        return decide(source: source, output: output, action: action)
    }

    /// Plans a file whose output goes to stdout (`-o -`): no claims, nothing to skip.
    public func planToStandardOutput(_ candidate: Candidate) -> Plan {
        do {
            let source = try SourceFile(path: candidate.path)
            let format = ImageFormat.sniff(try source.prefix(ImageFormat.sniffLength))
            return planStream(format: format, source: .path(candidate.path), bytes: nil, output: .standardStream)
        } catch {
            return .done(ConversionResult(source: candidate.path, output: "-", status: .failed, reason: error.description))
        }
    }

    /// Plans one image read from stdin, written to `output` (stdout or a path).
    public func planStandardInput(bytes: [UInt8], output: Endpoint) -> Plan {
        let format = ImageFormat.sniff(Array(bytes.prefix(ImageFormat.sniffLength)))
        if case .path(let path) = output {
            guard format.isHEIF || format == .jpeg else {
                return .done(ConversionResult(source: "-", output: nil, status: .failed, reason: "not a HEIF image: looks like \(format)"))
            }
            let (refusal, claim, after) = claimAndCheck(output: path, sourceName: "-", source: nil)
            if let refusal { return refusal }
            if options.dryRun { return .done(ConversionResult(source: "-", output: path, status: .planned)) }
            return .job(Job(source: .standardStream, output: output, action: format.isHEIF ? .convert : .copy,
                            bytes: bytes, claim: claim, after: after))
        }
        return planStream(format: format, source: .standardStream, bytes: bytes, output: output)
    }

    private func planStream(format: ImageFormat, source: Endpoint, bytes: [UInt8]?, output: Endpoint) -> Plan {
        let action: Job.Action
        switch format {
        case .heif: action = .convert
        case .jpeg: action = .copy
        default:
            return .done(ConversionResult(source: source.display, output: output.display, status: .failed,
                                          reason: "not a HEIF image: looks like \(format)"))
        }
        if options.dryRun { return .done(ConversionResult(source: source.display, output: output.display, status: .planned)) }
        return .job(Job(source: source, output: output, action: action, bytes: bytes))
    }

    private func decide(source: SourceFile, output: String, action: Job.Action) -> Plan {
        let (refusal, claim, after) = claimAndCheck(output: output, sourceName: source.path, source: source)
        if let refusal { return refusal }
        if options.dryRun { return .done(ConversionResult(source: source.path, output: output, status: .planned)) }
        return .job(Job(source: .path(source.path), output: .path(output), action: action, claim: claim, after: after))
    }

    /// Claims `output` for this source and applies the never-overwrite rules.
    /// Returns the result to report when the job must not run (its claim is then
    /// already resolved), or the job's claim and the earlier claim it must wait for.
    private func claimAndCheck(output: String, sourceName: String, source: SourceFile?)
        -> (refusal: Plan?, claim: OutputClaim, after: OutputClaim?) {
        let after = claims[output]
        let claim = OutputClaim(owner: sourceName, previous: after)
        claims[output] = claim
        let refusal = check(output: output, sourceName: sourceName, source: source, after: after)
        if case .done(let result)? = refusal {
            // A refused input keeps the output only when it was skipped or planned.
            claim.resolve(owned: result.status == .skipped || result.status == .planned)
        }
        return (refusal, claim, after)
    }

    private func check(output: String, sourceName: String, source: SourceFile?, after: OutputClaim?) -> Plan? {
        func refuse(_ status: ConversionResult.Status, _ reason: String) -> Plan {
            .done(ConversionResult(source: sourceName, output: output, status: status, reason: reason))
        }
        if let after, options.dryRun || !options.overwrite && pathExists(output) {
            return refuse(.failed, CollisionError(output: output, owner: after.owner).description)
        }
        if let source, source.isSameFile(as: output) || output == source.path {
            return refuse(.failed, "output would overwrite the source itself; use --output to write elsewhere")
        }
        guard let existing = try? SourceFile(path: output) else { return nil }
        if existing.info.st_mode & S_IFMT == S_IFDIR {
            return refuse(.failed, "output \(output) exists and is a directory")
        }
        guard options.overwrite else { return refuse(.skipped, "output exists (use --overwrite to replace it)") }
        if let prefix = try? existing.prefix(ImageFormat.sniffLength), ImageFormat.sniff(prefix).isHEIF {
            return refuse(.failed, "output \(output) exists and holds HEIF data; refusing to overwrite what may be a source")
        }
        return nil
    }

    private func pathExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
