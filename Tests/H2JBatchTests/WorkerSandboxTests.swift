import CSandboxProbe
import CWorkerIPC
import Foundation
import H2JTestSupport
import Testing

/// The worker sandbox, entered through the very function a worker calls
/// (`h2j_enter_sandbox`) in a forked probe child: a decoder taken over by a hostile file
/// can read, compute and write to the descriptors it was given, and nothing else; and
/// each layer holds on its own, so removing one fails a test here.
@Suite("Worker sandbox")
struct WorkerSandboxTests {
    /// An ordinary user the probe becomes when the tests run as root.
    static let ordinaryUser: Int32 = 1000
    static let isRoot = geteuid() == 0
    static let all = Int32(H2J_SANDBOX_ALL)
    static let landlockAvailable = h2j_probe_landlock_abi() >= 1

    /// The escapes issue 19 lists, by name.
    static let escapes: [(h2j_probe_call, String)] = [
        (H2J_PROBE_OPEN_BY_HANDLE_WRITE, "open_by_handle_at(O_RDWR) + write"),
        (H2J_PROBE_PIDFD_GETFD, "pidfd_getfd(parent's writable fd) + write"),
        (H2J_PROBE_PIDFD_OPEN, "pidfd_open(parent)"),
        (H2J_PROBE_PTRACE, "ptrace(PTRACE_ATTACH, bystander)"),
        (H2J_PROBE_KILL_BYSTANDER, "kill(bystander, SIGTERM)"),
        (H2J_PROBE_FORK, "fork"),
        (H2J_PROBE_EXECVE, "execve(/bin/true)"),
        (H2J_PROBE_SOCKET, "socket(AF_INET)"),
        (H2J_PROBE_UNIX_SOCKET, "socket(AF_UNIX)"),
        (H2J_PROBE_IO_URING_SETUP, "io_uring_setup"),
        (H2J_PROBE_FCHMOD, "fchmod(held fd, 04777)"),
        (H2J_PROBE_FCHOWN, "fchown(held fd)"),
        (H2J_PROBE_UTIMENSAT, "utimensat(held fd, forged times)"),
        (H2J_PROBE_SETXATTR, "fsetxattr(held fd)"),
        (H2J_PROBE_OPEN, "open(O_RDONLY)"),
        (H2J_PROBE_OPENAT, "openat(O_RDONLY)"),
        (H2J_PROBE_CREATE, "openat(O_CREAT)"),
    ]

    /// The identities to probe as: root (the worker drops to nobody), and an ordinary user.
    static var identities: [(uid: Int32, name: String)] {
        isRoot ? [(-1, "root"), (ordinaryUser, "uid \(ordinaryUser)")] : [(-1, "uid \(getuid())")]
    }

    static func probe(_ call: h2j_probe_call, layers: Int32, uid: Int32 = -1) -> (h2j_probe_result, TemporaryDirectory) {
        let scratch = TemporaryDirectory()
        chmod(scratch.path, 0o777)
        let target = scratch.file("target", Array("original".utf8))
        return (h2j_probe(call, layers, uid, uid, scratch.path, target), scratch)
    }

    static func describe(_ outcome: Int32) -> String {
        switch outcome {
        case 0: "SUCCEEDED"
        case ..<(-999): "probe did not run (\(outcome))"
        case ..<0: "killed by signal \(-outcome)"
        default: String(cString: strerror(outcome))
        }
    }

    @Test("Every escape fails with EPERM (or kills) inside the whole sandbox, as root and as an ordinary user; the target file is untouched")
    func escapesFail() throws {
        for identity in Self.identities {
            var table: [String] = []
            for (call, name) in Self.escapes {
                let (result, scratch) = Self.probe(call, layers: Self.all, uid: identity.uid)
                try #require(result.outcome != Int32(H2J_PROBE_UNRUN), "\(identity.name): the probe did not run for \(name)")
                #expect(result.outcome != Int32(H2J_PROBE_NO_SANDBOX), "\(identity.name): no sandbox: \(Self.describe(result.layers))")
                table.append("  \(name): \(Self.describe(result.outcome))")
                #expect(result.outcome == EPERM || result.outcome < 0 && result.outcome > -999,
                        "\(identity.name): \(name) gave \(Self.describe(result.outcome))")
                let expected = Self.all & ~(Self.landlockAvailable ? 0 : Int32(H2J_SANDBOX_LANDLOCK))
                #expect(result.layers == expected, "\(identity.name): layers \(String(result.layers, radix: 2))")
                #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/target")) == Data("original".utf8),
                        "\(identity.name): \(name) wrote the target")
                #expect(!scratch.exists("created"))
            }
            print("Worker sandbox as \(identity.name):\n" + table.joined(separator: "\n"))
        }
    }

    @Test("What a worker needs still works inside the whole sandbox: reading a held descriptor, writing one, a thread, a memfd")
    func needsWork() throws {
        for call in [H2J_PROBE_READ_HELD, H2J_PROBE_WRITE_HELD, H2J_PROBE_THREAD, H2J_PROBE_MEMFD] {
            for identity in Self.identities {
                let (result, _) = Self.probe(call, layers: Self.all, uid: identity.uid)
                #expect(result.outcome == 0, "\(identity.name): call \(call.rawValue) gave \(Self.describe(result.outcome))")
            }
        }
    }

    @Test("The seccomp filter alone, as root with every capability, refuses every escape with EPERM")
    func filterAlone() throws {
        for (call, name) in Self.escapes {
            let (result, scratch) = Self.probe(call, layers: Int32(H2J_SANDBOX_SECCOMP))
            #expect(result.layers == Int32(H2J_SANDBOX_SECCOMP))
            #expect(result.outcome == EPERM || result.outcome < 0 && result.outcome > -999, "\(name) gave \(Self.describe(result.outcome))")
            #expect(!scratch.exists("created"))
        }
    }

    @Test("Landlock alone grants no path: open, openat and creating a file fail with EACCES",
          .enabled(if: landlockAvailable, "the kernel has no Landlock"))
    func landlockAlone() throws {
        for call in [H2J_PROBE_OPEN, H2J_PROBE_OPENAT, H2J_PROBE_CREATE, H2J_PROBE_OPEN_BY_HANDLE_WRITE] {
            let (result, scratch) = Self.probe(call, layers: Int32(H2J_SANDBOX_LANDLOCK), uid: Self.isRoot ? Self.ordinaryUser : -1)
            #expect(result.layers == Int32(H2J_SANDBOX_LANDLOCK))
            #expect(result.outcome == EACCES || call == H2J_PROBE_OPEN_BY_HANDLE_WRITE && result.outcome == EPERM,
                    "call \(call.rawValue) gave \(Self.describe(result.outcome))")
            #expect(!scratch.exists("created"))
        }
        let (read, _) = Self.probe(H2J_PROBE_READ_HELD, layers: Int32(H2J_SANDBOX_LANDLOCK))
        #expect(read.outcome == 0, "a descriptor held before still reads")
    }

    @Test("The identity alone: run as root, nobody/nogroup with no groups and no capability in any set (bounding included); an ordinary user keeps its uid and has none")
    func identityAlone() throws {
        for identity in Self.identities {
            let (result, _) = Self.probe(H2J_PROBE_READ_HELD, layers: Int32(H2J_SANDBOX_IDENTITY), uid: identity.uid)
            try #require(result.outcome == 0, "\(identity.name): \(Self.describe(result.outcome))")
            let uid = identity.uid >= 0 ? identity.uid : Self.isRoot ? Int32(H2J_WORKER_ID) : Int32(getuid())
            #expect(result.uid == uid && result.uid != 0 && result.gid != 0, "\(identity.name): uid \(result.uid) gid \(result.gid)")
            #expect(result.groups == 0)
            #expect(result.effective == 0 && result.permitted == 0, "\(identity.name): CapEff \(String(result.effective, radix: 16))")
            if identity.uid < 0 && Self.isRoot { #expect(result.bounding == 0, "CapBnd \(String(result.bounding, radix: 16))") }
        }
        if Self.isRoot {
            let (byHandle, _) = Self.probe(H2J_PROBE_OPEN_BY_HANDLE_WRITE, layers: Int32(H2J_SANDBOX_IDENTITY))
            #expect(byHandle.outcome == EPERM, "open_by_handle_at needs CAP_DAC_READ_SEARCH: \(Self.describe(byHandle.outcome))")
        }
    }

    @Test("The limits alone: a file cannot grow past RLIMIT_FSIZE (EFBIG); without them it can")
    func limitsAlone() throws {
        let (limited, _) = Self.probe(H2J_PROBE_WRITE_PAST_LIMIT, layers: Int32(H2J_SANDBOX_LIMITS))
        #expect(limited.outcome == EFBIG, Comment(rawValue: Self.describe(limited.outcome)))
        let (unlimited, _) = Self.probe(H2J_PROBE_WRITE_PAST_LIMIT, layers: Int32(H2J_SANDBOX_SECCOMP))
        #expect(unlimited.outcome == 0, Comment(rawValue: Self.describe(unlimited.outcome)))
    }
}
