#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// The publisher's temp file names: `.heic2jpg-HOST-PID-N.tmp`, at most 50 bytes
/// whatever the output's name, so every name a file system allows for an output works.
/// HOST (8 hex digits of a hash of the host name) and PID say whose a temp file is, so a
/// run can tell the leftovers of a killed run on this machine (their process is gone)
/// from the temp files of a run that is still going, here or on another machine sharing
/// the file system.
package enum TempFileName {
    static let prefix = ".heic2jpg-"
    static let suffix = ".tmp"

    /// This machine's part of the name: FNV-1a of the host name, 8 hex digits.
    static let host: String = {
        var hash: UInt32 = 0x811C_9DC5
        for byte in POSIX.hostNameBytes() { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }()

    /// The `counter`th temp name of this process.
    static func make(_ counter: Int) -> String {
        "\(prefix)\(host)-\(getpid())-\(counter)\(suffix)"
    }

    /// True for names the publisher creates (any host, any process), so walkers skip them.
    package static func matches(_ name: String) -> Bool {
        name.hasPrefix(prefix) && name.hasSuffix(suffix)
    }

    /// The process that made `name`, when it is a temp name of this machine.
    static func localProcess(_ name: String) -> pid_t? {
        guard matches(name) else { return nil }
        let fields = name.dropFirst(prefix.count).dropLast(suffix.count).split(separator: "-")
        guard fields.count == 3, fields[0] == host, let pid = pid_t(fields[1]), pid > 0, Int(fields[2]) != nil else { return nil }
        return pid
    }

    /// Whether `name` is a leftover of a process of this machine that no longer exists.
    static func isOrphan(_ name: String) -> Bool {
        guard let pid = localProcess(name), pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes the orphans among `names`, entries of `directory`; returns how many went.
    static func removeOrphans(_ names: [String], in directory: String) -> Int {
        names.filter(isOrphan).filter { POSIX.removeFile(Path.join(directory, $0)) == 0 }.count
    }
}
