#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JJob
import H2JDigest
import H2JOutputPlan
import H2JState
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
/// or that holds HEIF data, is never written. An existing file that heic2jpg wrote for
/// this source (`OutputOwnership`) → skipped (warning `output-settings-differ` when its
/// mark records another quality or mode), or replaced with `overwrite`; any other
/// existing file → failed, or the output moves to `NAME-N.jpg` with `--on-conflict
/// suffix`. Runs on one thread: claims are made in walk order, so "the second one fails"
/// is deterministic.
package final class Planner {
    private let options: ConversionOptions
    /// Holds the claims: the planner reserves each output in walk order.
    private let publisher: OutputPublisher
    /// What may be written where, as `JobOutputs` asks it too.
    private let policy: OutputPolicy
    /// How each source's primary output is named (`--name`, `-o FILE.jpg`).
    private let naming: OutputNaming
    /// A dry run whose results are shown per file (`-v`, `--report`) lists every file a
    /// source would get (`DryRunOutputs`: its container read); others name the primary.
    package var listsPlannedOutputs = false

    package init(options: ConversionOptions, publisher: OutputPublisher, naming: OutputNaming = .template(.standard)) {
        self.options = options
        self.publisher = publisher
        self.naming = naming
        policy = OutputPolicy(publisher: publisher)
    }

    /// Plans one file found by the walker. `refreshing` is the state's record of this
    /// source when it changed since (`RunState.Verdict.changed`): its own earlier outputs
    /// are then replaced, without `--overwrite`, and a file recorded as its output is
    /// its own even with no mark. `replacingOwn` replaces this source's own earlier
    /// output (by its mark) rather than skipping it: a hand-off must look into the source,
    /// and an output of a run killed before it recorded anything was never verified.
    package func plan(_ candidate: Candidate, refreshing: SourceRecord? = nil, replacingOwn: Bool = false) -> Plan {
        let namedLikeHEIF = HEIFExtensions.matches(candidate.path)
        let source: SourceFile
        let format: ImageFormat
        do {
            source = try SourceFile(path: candidate.path)
            format = ImageFormat.sniff(try source.prefix(ImageFormat.sniffLength))
        } catch {
            guard candidate.explicit || namedLikeHEIF else { return .ignore }
            return .done(.failed(source: candidate.path, output: nil, ErrorCode(classifying: error), error.description))
        }
        guard let action = Self.action(for: format, copyingJPEG: namedLikeHEIF) else {
            guard candidate.explicit || namedLikeHEIF else { return .ignore }
            return .done(Self.notHEIF(format, source: candidate.path, output: nil))
        }
        return decide(source: .path(candidate.path), file: source, bytes: nil,
                      output: .path(naming.path(for: candidate)), numbered: naming.numbered(for: candidate), action: action,
                      refreshing: refreshing, replacingOwn: replacingOwn)
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
            return .done(.failed(source: candidate.path, output: "-", ErrorCode(classifying: error), error.description))
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

    package static func notHEIF(_ format: ImageFormat, source: String, output: String?) -> ConversionResult {
        .failed(source: source, output: output, .notHEIF, "not a HEIF image: looks like \(format)")
    }

    /// Claims a path output and applies the never-overwrite rules; stdout needs neither.
    /// A dry run's result may list every file the job would write (`listsPlannedOutputs`).
    private func decide(source: Endpoint, file: SourceFile?, bytes: [UInt8]?, output: Endpoint, numbered: NumberedNames? = nil,
                        action: Job.Action, refreshing: SourceRecord? = nil, replacingOwn: Bool = false) -> Plan {
        var reservation: OutputReservation?
        var output = output, replacing = false
        // Hashed here only for an existing output whose mark names no file (strip mode's),
        // once; otherwise the pool hashes it before the job goes to a worker (`Job.digested`).
        var hashed: String?
        if case .path(let path) = output {
            let sourceName = source.display
            let sourceDigest = { () -> String? in
                hashed = hashed ?? file.flatMap { try? SourceDigest.hex(of: $0.byteSource) } ?? bytes.map(SourceDigest.hex(of:))
                return hashed
            }
            let ownership = Ownership(policy: OutputPolicy.Ownership(name: source.fileName, times: file?.times, digest: sourceDigest,
                                                                     markExpected: options.mark && action == .convert,
                                                                     recorded: { refreshing?.recordsOutput(at: $0) ?? false }),
                                      replacesOwn: replacingOwn || refreshing != nil)
            var decision = reserveAndCheck(output: path, sourceName: sourceName, source: file, ownership: ownership)
            if decision.verdict == .foreign, options.onConflict == .suffix,
               let suffixed = reserveSuffixed(path, sourceName: sourceName, source: file, ownership: ownership) {
                decision = suffixed
            }
            switch decision.verdict {
            case .refused(let plan): return plan
            case .foreign:
                let error = policy.foreign(decision.path, suffixesTaken: options.onConflict == .suffix)
                return .done(.failed(source: sourceName, output: decision.path, .outputNotOurs, error.description))
            case .free: break
            case .ours: replacing = true
            }
            reservation = decision.reservation
            output = .path(decision.path)
        }
        let job = Job(source: source, output: output, numbered: numbered, action: action, bytes: bytes, file: file,
                      reservation: reservation, replacesExisting: replacing, recordedOutputs: Set(refreshing?.outputs.map(\.path) ?? []),
                      sourceIdentity: file.map { SourceIdentity($0.info) }, sourceSHA256: hashed)
        guard options.dryRun else { return .job(job) }
        var planned = ConversionResult(source: source.display, output: output.display, status: .planned)
        let reading: ByteSource? = file.map(\.byteSource) ?? bytes.map { MemoryByteSource($0) }
        if listsPlannedOutputs, action == .convert, let reading {
            planned.outputs = DryRunOutputs.files(of: job.conversion, reading: reading, options: options)
        }
        return .done(planned)
    }

    /// What an existing output must show to be this source's (`OutputPolicy.Ownership`),
    /// and whether this source's own existing output is replaced rather than skipped.
    private struct Ownership {
        let policy: OutputPolicy.Ownership
        let replacesOwn: Bool
    }

    /// What the never-overwrite rules say about one output path.
    private enum Verdict: Equatable {
        /// Nothing is there: write it.
        case free
        /// Our own earlier output is there and `overwrite` asks to replace it.
        case ours
        /// A file heic2jpg did not write for this source is there.
        case foreign
        /// The job must not run: skipped, or failed for another reason.
        case refused(Plan)
    }

    /// Reserves `output` for this source and applies the never-overwrite rules. Every
    /// reservation but a `.free` or `.ours` one is settled before returning.
    private func reserveAndCheck(output: String, sourceName: String, source: SourceFile?, ownership: Ownership)
        -> (verdict: Verdict, reservation: OutputReservation, path: String) {
        let reservation = publisher.reserve(output, for: sourceName)
        let verdict = check(output: output, sourceName: sourceName, source: source, after: reservation.previous,
                            ownership: ownership)
        switch verdict {
        case .refused(.done(let result)):
            // A refused input keeps the output only when it was skipped or planned.
            reservation.settle(published: result.status == .skipped || result.status == .planned)
        case .foreign, .refused: reservation.settle(published: false)
        case .free, .ours: break
        }
        return (verdict, reservation, output)
    }

    /// The decision for the first `NAME-N.jpg` (`OutputPolicy.suffixes`) that is free or
    /// already this source's own output (then skipped, or replaced). nil when every name
    /// is taken. The names are deterministic and Windows-safe.
    private func reserveSuffixed(_ output: String, sourceName: String, source: SourceFile?, ownership: Ownership)
        -> (verdict: Verdict, reservation: OutputReservation, path: String)? {
        for candidate in policy.suffixes(of: output) {
            let decision = reserveAndCheck(output: candidate, sourceName: sourceName, source: source, ownership: ownership)
            switch decision.verdict {
            case .free, .ours: return decision
            case .refused(.done(let result)) where result.status == .skipped: return decision
            // A foreign file, a directory, HEIF data: passed over.
            case .foreign, .refused: continue
            }
        }
        return nil
    }

    private func check(output: String, sourceName: String, source: SourceFile?, after: OutputReservation?,
                       ownership: Ownership) -> Verdict {
        func refuse(_ code: ErrorCode, _ reason: String) -> Verdict {
            .refused(.done(.failed(source: sourceName, output: output, code, reason)))
        }
        if let after, options.dryRun || !options.overwrite && pathExists(output) {
            return refuse(.outputCollision, CollisionError(output: output, owner: after.owner).description)
        }
        switch policy.verdict(output, source: source, ownership: ownership.policy) {
        case .free: return .free
        case .foreign: return .foreign
        case .refused(let code, let reason): return refuse(code, reason)
        case .ours(let mark):
            guard options.overwrite || ownership.replacesOwn else {
                var skipped = ConversionResult(source: sourceName, output: output, status: .skipped,
                                               reason: "output exists (use --overwrite to replace it)")
                if let mark, let settings = OtherSettings(mark, options) {
                    skipped.warnings.append(Warning(.outputSettingsDiffer, "\(output) exists, written with \(settings); --overwrite replaces it"))
                }
                return .refused(.done(skipped))
            }
            return .ours
        }
    }

    private func pathExists(_ path: String) -> Bool {
        POSIX.fileInfo(path, followingLinks: false) != nil
    }
}
