#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// `heic2jpg watch`'s candidates: a first full walk (the catch-up), then each file as it
/// settles in a watched directory, and a walk again on a queue overflow, SIGHUP, every
/// `--rescan` interval, or, where a watch could not be set, every minute. `next` blocks
/// until there is a candidate, and returns nil once a stop is asked (`WatchControl`).
///
/// A file a walk meets that changed within the settle time (an upload under way) waits
/// like one an event named, and one still open for writing waits for its close, so
/// nothing is taken half-written. Uploaders' temp names are
/// passed over (`UploadTempNames`) until they are renamed.
final class WatchCandidates: CandidateSource {
    /// What a watch needs from its run.
    struct Settings {
        var inputs: [String]
        var outputRoot: String?
        /// `--exclude` and the uploaders' temp names together.
        var excludes: ExcludePatterns
        var settleSeconds: Double
        /// `--rescan`: seconds between full walks; nil for none.
        var rescanSeconds: Double?
        /// Seconds between summary lines on stderr.
        var summarySeconds: Double = 3600
    }

    private let settings: Settings
    private let control: WatchControl
    private let inotify: Inotify
    private let tree: WatchedTree
    private var settling: SettlingFiles
    /// Settled files, taken from `readyIndex` on (a queue without O(n) removals).
    private var ready: [Candidate] = []
    private var readyIndex = 0
    /// The walk under way (the catch-up or a rescan) and what makes one.
    private var walk: InputWalker?
    private let makeWalk: () -> InputWalker
    private var rescanAsked = false
    /// When to walk again: `--rescan`, a network file system, or watches that could not be set.
    private var rescanSeconds: Double?
    private var nextRescan: Double?
    private var nextSummary: Double
    /// Told when the loop has nothing to do (claims may go), and for a summary line.
    private let onIdle: () -> Void
    private let onSummary: () -> Void

    /// Sets up the watches of every input, then the catch-up walk; throws when inotify
    /// cannot be had at all.
    init(_ settings: Settings, control: WatchControl, makeWalk: @escaping () -> InputWalker,
         onIdle: @escaping () -> Void, onSummary: @escaping () -> Void) throws(SystemError) {
        self.settings = settings
        self.control = control
        self.makeWalk = makeWalk
        (self.onIdle, self.onSummary) = (onIdle, onSummary)
        inotify = try Inotify()
        tree = WatchedTree(inotify: inotify, excludes: settings.excludes, outputRoot: settings.outputRoot)
        settling = SettlingFiles(settleSeconds: settings.settleSeconds)
        rescanSeconds = settings.rescanSeconds
        nextSummary = POSIX.monotonicSeconds() + settings.summarySeconds
        for input in settings.inputs {
            tree.add(WatchedTree.Directory(root: input, relative: ""))
            if let kind = NetworkFileSystem.name(of: input) {
                let every = settings.rescanSeconds ?? Self.networkRescanSeconds
                rescanSeconds = min(rescanSeconds ?? every, every)
                Self.warn("\(input) is on \(kind): changes made on other machines give no events there; walking it again every \(Int(every)) s"
                          + (settings.rescanSeconds == nil ? " (--rescan sets how often)" : ""))
            }
        }
        noteWatchProblems()
        walk = makeWalk()
        if let rescanSeconds { nextRescan = POSIX.monotonicSeconds() + rescanSeconds }
    }

    /// How often a network file system is walked again when `--rescan` does not say.
    static let networkRescanSeconds = 300.0
    /// How often the tree is walked again when watches could not all be set.
    static let fallbackRescanSeconds = 60.0

    /// The number of directories watched.
    var watchedDirectories: Int { tree.count }

    func next() -> Result<Candidate, WalkError>? {
        while true {
            if control.isStopped { return nil }
            if readyIndex < ready.count {
                defer { readyIndex += 1 }
                return .success(ready[readyIndex])
            }
            if !ready.isEmpty { (ready, readyIndex) = ([], 0) }
            if let walking = walk {
                guard let found = walking.next() else {
                    walk = nil
                    continue
                }
                if case .success(let candidate) = found, settling.isBeingWritten(candidate.path) || isRecent(candidate) {
                    settling.found(candidate.path, root: candidate.root, relativePath: candidate.relativePath, now: POSIX.monotonicSeconds())
                    continue
                }
                return found
            }
            if rescanAsked {
                rescan()
                continue
            }
            onIdle()
            wait()
        }
    }

    /// Whether a walked file changed within the settle time, so it may still be written.
    private func isRecent(_ candidate: Candidate) -> Bool {
        guard let info = candidate.info else { return false }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let latest = max(info.st_mtim.nanoseconds, info.st_ctim.nanoseconds)
        return Double(now.nanoseconds - latest) / 1e9 < settings.settleSeconds
    }

    /// Waits for events, a request or the next deadline, and takes what settled.
    private func wait() {
        let now = POSIX.monotonicSeconds()
        let deadlines = [settling.nextDeadline, nextRescan, nextSummary].compactMap { $0 }
        let timeout = deadlines.min().map { max(0, min(60, $0 - now)) } ?? 60
        var fds = [pollfd(fd: inotify.fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: control.wake, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, nfds_t(fds.count), Int32((timeout * 1000).rounded(.up)))
        for request in control.take() {
            switch request {
            case .stop: return
            case .rescan: rescanAsked = true
            case .summary: onSummary()
            }
        }
        handle(inotify.read())
        let after = POSIX.monotonicSeconds()
        for (path, file, info) in settling.settled(now: after) {
            ready.append(candidate(path: path, root: file.root, relativePath: file.relativePath, info: info))
        }
        if let due = nextRescan, after >= due {
            rescanAsked = true
            nextRescan = rescanSeconds.map { after + $0 }
        }
        if after >= nextSummary {
            onSummary()
            nextSummary = after + settings.summarySeconds
        }
    }

    /// What the events say: files to wait on, directories to watch or drop.
    private func handle(_ events: [Inotify.Event]) {
        let now = POSIX.monotonicSeconds()
        for event in events {
            if event.has(IN_Q_OVERFLOW) {
                let limit = Inotify.limit("max_queued_events").map { " (fs.inotify.max_queued_events = \($0))" } ?? ""
                Self.warn("the kernel's queue of file events overflowed\(limit), so some were lost: walking every directory again")
                rescanAsked = true
                continue
            }
            if event.has(IN_IGNORED) {
                tree.forget(event.watch)
                continue
            }
            guard let directory = tree.directory(of: event.watch) else { continue }
            if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) {
                tree.remove(directory.path)
                settling.forget(directory.path)
                if directory.relative.isEmpty {
                    Self.warn("\(directory.root), a watched directory, was removed or moved away: it is watched again when a walk finds it there (SIGHUP, --rescan)")
                }
                continue
            }
            guard !event.name.isEmpty else { continue }
            let relative = directory.relative.isEmpty ? event.name : Path.join(directory.relative, event.name)
            let path = Path.join(directory.path, event.name)
            if settings.excludes.match(name: event.name, relativePath: relative) != nil || OutputPublisher.isTempName(event.name) {
                continue
            }
            if event.isDirectory {
                if event.has(IN_CREATE) || event.has(IN_MOVED_TO) {
                    // A tree made or moved in: its files are already there, with no event of their own.
                    for file in tree.add(WatchedTree.Directory(root: directory.root, relative: relative)) {
                        settling.touch(Path.join(file.root, file.relative), root: file.root, relativePath: file.relative, now: now)
                    }
                    noteWatchProblems()
                } else if event.has(IN_MOVED_FROM) || event.has(IN_DELETE) {
                    tree.remove(path)
                    settling.forget(path)
                }
            } else if event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO) {
                settling.touch(path, root: directory.root, relativePath: relative, now: now)
            } else if event.has(IN_MODIFY) {
                settling.written(path, root: directory.root, relativePath: relative, now: now)
            } else if event.has(IN_ATTRIB) {
                settling.changed(path, now: now)
            } else if event.has(IN_MOVED_FROM) || event.has(IN_DELETE) {
                settling.forget(path)
            }
        }
    }

    /// A full walk again: every directory watched that was not (events lost), and every
    /// file looked at; the state tells the converted ones up to date.
    private func rescan() {
        rescanAsked = false
        for input in settings.inputs {
            tree.add(WatchedTree.Directory(root: input, relative: ""), rescanning: true)
        }
        noteWatchProblems()
        walk = makeWalk()
    }

    /// Warns of directories that could not be watched; when the watch limit was reached,
    /// names it and how to raise it, and walks again every minute instead.
    private func noteWatchProblems() {
        for failure in tree.takeFailures() { Self.warn("cannot watch \(failure); its new files are seen only by walks (SIGHUP, --rescan)") }
        if let directory = tree.limitReachedAt, rescanSeconds.map({ $0 > Self.fallbackRescanSeconds }) ?? true {
            let limit = Inotify.limit("max_user_watches").map { "\($0) " } ?? ""
            Self.warn("cannot watch \(directory): the limit of \(limit)inotify watches per user (fs.inotify.max_user_watches) is reached; "
                      + "raise it with 'sysctl fs.inotify.max_user_watches=1048576' (and a file in /etc/sysctl.d to keep it); "
                      + "meanwhile every directory is walked again every \(Int(Self.fallbackRescanSeconds)) s")
            rescanSeconds = Self.fallbackRescanSeconds
            nextRescan = POSIX.monotonicSeconds() + Self.fallbackRescanSeconds
        }
    }

    /// A settled file as a walk would have found it: its output directory mirrors its
    /// path under its input.
    private func candidate(path: String, root: String, relativePath: String, info: stat) -> Candidate {
        let directory = Path.parent(relativePath)
        let base = settings.outputRoot ?? root
        var found = Candidate(path: path, outputDirectory: directory == "." ? base : Path.join(base, directory), explicit: false,
                              root: root, relativePath: relativePath, info: info)
        found.walked = false
        return found
    }

    private static func warn(_ line: String) {
        POSIX.writeLine("warning: \(line)", to: STDERR_FILENO)
    }
}
