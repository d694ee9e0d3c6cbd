#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JState
import H2JSupport

/// What `heic2jpg status` is asked to do.
package struct StatusRequest: Sendable, Equatable {
    /// State files, merged (the shards of one migration).
    package var states: [String] = []
    /// One JSON object instead of text.
    package var json = false
    /// `--html FILE`: also write the page `StatusPage` makes.
    package var html: String?
    package init() {}
}

/// `heic2jpg status [--json] STATE...`: what the state files record, merged: sources
/// by status, failures with their codes and reasons, bytes, hand-offs, the sources a
/// hand-off kept with the reason, the shards, the last runs. Fails (exit 1) when a
/// failure is recorded, when sources may remain that no run met (a shard without a
/// state, a state whose latest run did not end), or when a state cannot be read.
package enum StatusCommand {
    /// Failures listed in the text form (the JSON form lists them all).
    static let failuresShown = 50

    package static func run(_ request: StatusRequest) -> CommandStatus {
        let report: StateReport
        do {
            report = try StateReport(paths: request.states)
        } catch {
            POSIX.writeLine("error: \(error)", to: STDERR_FILENO)
            return .failed
        }
        POSIX.write(request.json ? json(report) + "\n" : text(report), to: STDOUT_FILENO)
        if let html = request.html {
            do {
                let page = try PageFile(path: html, inputs: request.states)
                try page.write(StatusPage.html(report, states: request.states))
                try page.commit()
            } catch {
                POSIX.writeLine("error: --html \(html): \(error)", to: STDERR_FILENO)
                return .failed
            }
        }
        return report.hasFailures || !report.isComplete ? .failed : .succeeded
    }

    static func text(_ report: StateReport) -> String {
        var lines: [String] = []
        let total = report.counts.values.reduce(0, +)
        let counts = report.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        lines.append("sources: \(total)" + (counts.isEmpty ? "" : " (\(counts))") + ", \(megabytes(report.sourceBytes))")
        lines.append("outputs: \(report.outputs), \(megabytes(report.outputBytes))")
        if !report.failures.isEmpty {
            lines.append("failures: \(report.failures.count)")
            for failure in report.failures.prefix(failuresShown) {
                lines.append("  \(failure.source): \(failure.code): \(failure.reason)")
            }
            if report.failures.count > failuresShown { lines.append("  … \(report.failures.count - failuresShown) more (--json lists all)") }
        }
        if !report.handOffs.isEmpty {
            lines.append("handed off: \(report.handOffs.count)")
            for handOff in report.handOffs.prefix(failuresShown) {
                lines.append("  \(handOff.action) \(handOff.source)" + (handOff.destination.map { " -> \($0)" } ?? ""))
            }
        }
        if !report.kept.isEmpty {
            lines.append("kept (not handed off): \(report.kept.count)")
            for kept in report.kept.prefix(failuresShown) { lines.append("  \(kept.source): \(kept.reason)") }
            if report.kept.count > failuresShown { lines.append("  … \(report.kept.count - failuresShown) more (--json lists all)") }
        }
        if !report.shards.isEmpty {
            let taken = Set(report.shards.map(\.index)).count
            if report.shardCounts.count > 1 {
                lines.append("shards: states of different shard counts (\(report.shards.map { "\($0.index)/\($0.count)" }.joined(separator: ", ")))"
                             + "; not one migration")
            } else if let count = report.shardCounts.first {
                let missing = report.missingShards
                lines.append("shards: \(taken) of \(count)"
                             + (missing.isEmpty ? "" : "; no state for \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")), whose sources no run has met"))
            }
        }
        for run in report.stoppedRuns {
            let end = RunUnderWay.end(run)
            lines.append("incomplete: \(run.state): its latest run #\(run.id) " + (run.exitCode == nil ? "is \(end)" : "ended with \(end)")
                         + (RunUnderWay.check(run) ? "" : "; rerun it to meet the rest"))
        }
        lines.append("last runs:")
        for run in report.runs.prefix(10) {
            lines.append("  \(run.state) #\(run.id) \(time(run.startedNanoseconds)) on \(run.host) (pid \(run.pid)): "
                         + "\(run.converted) converted, \(run.updated) updated, \(run.skipped) skipped, \(run.failed) failed, \(RunUnderWay.end(run))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ report: StateReport) -> String {
        var object = JSONLine()
        var counts = JSONLine()
        for (status, count) in report.counts.sorted(by: { $0.key < $1.key }) { counts.add(status, count) }
        object.add("sources", object: counts)
        object.add("sourceBytes", report.sourceBytes)
        object.add("outputs", report.outputs)
        object.add("outputBytes", report.outputBytes)
        object.add("failures", objects: report.failures.map { failure in
            var line = JSONLine()
            line.add("source", failure.source)
            line.add("errorCode", failure.code)
            line.add("reason", failure.reason)
            line.add("state", failure.state)
            return line
        })
        object.add("handOffs", objects: report.handOffs.map { handOff in
            var line = JSONLine()
            line.add("source", handOff.source)
            line.add("action", handOff.action)
            line.add("destination", handOff.destination)
            line.add("at", time(handOff.atNanoseconds))
            line.add("state", handOff.state)
            return line
        })
        object.add("kept", objects: report.kept.map { kept in
            var line = JSONLine()
            line.add("source", kept.source)
            line.add("reason", kept.reason)
            line.add("state", kept.state)
            return line
        })
        object.add("complete", report.isComplete)
        object.add("shardCounts", integers: report.shardCounts)
        object.add("missingShards", integers: report.missingShards)
        object.add("stoppedRuns", objects: report.stoppedRuns.map { run in
            var line = JSONLine()
            line.add("state", run.state)
            line.add("id", run.id)
            line.add("exitCode", run.exitCode)
            line.add("underWay", RunUnderWay.check(run))
            return line
        })
        object.add("runs", objects: report.runs.map { run in
            var line = JSONLine()
            line.add("state", run.state)
            line.add("id", run.id)
            line.add("started", time(run.startedNanoseconds))
            line.add("finished", run.finishedNanoseconds.map(time))
            line.add("host", run.host)
            line.add("pid", run.pid)
            line.add("converted", run.converted)
            line.add("updated", run.updated)
            line.add("skipped", run.skipped)
            line.add("failed", run.failed)
            line.add("exitCode", run.exitCode)
            line.add("underWay", RunUnderWay.check(run))
            return line
        })
        return object.text
    }

    static func megabytes(_ bytes: Int) -> String {
        "\(RunSummary.format(Double(bytes) / 1_000_000, digits: 1)) MB"
    }

    /// Nanoseconds since 1970 as ISO 8601 UTC.
    static func time(_ nanoseconds: Int) -> String {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        return POSIX.utcTime(seconds: &seconds)
    }
}
