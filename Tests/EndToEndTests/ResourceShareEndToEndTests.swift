import Foundation
import H2JTestSupport
import Testing

/// The default `-j` and `--max-memory` follow the CPUs and memory the run is given, as
/// `taskset` and a cgroup give them; `-v` says where each number came from.
@Suite("End to end: the CPU and memory share")
struct ResourceShareEndToEndTests {
    static let isRoot = geteuid() == 0

    /// `heic2jpg -v` over Samples with `prefix` (a command that runs its arguments) before
    /// it; the `jobs:` and `memory per worker:` lines it printed.
    func shareLines(_ prefix: [String], _ extra: [String] = []) throws -> [String] {
        let scratch = TemporaryDirectory()
        let outcome = try ChildProcess.run(prefix[0], Array(prefix.dropFirst()) + [Tool.binary, "-v", "--dry-run"] + extra
                                           + ["-o", scratch.sub("out"), Tool.samples])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("jobs: ") || $0.hasPrefix("memory per worker: ") }
    }

    /// A new cgroup for `controller` (v1 where that hierarchy is mounted, else v2), set up
    /// by `files`, and the command prefix that runs a program inside it; nil where none can be made.
    func cgroup(_ controller: String, _ files: [String: String]) -> (directory: String, prefix: [String])? {
        let v1 = "/sys/fs/cgroup/\(controller)"
        let base: String
        if FileManager.default.fileExists(atPath: v1 + "/cgroup.procs") {
            base = v1
        } else if let controllers = try? String(contentsOfFile: "/sys/fs/cgroup/cgroup.subtree_control", encoding: .utf8),
                  controllers.split(separator: " ").contains(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines) == controller }) {
            base = "/sys/fs/cgroup"
        } else {
            return nil
        }
        let directory = base + "/heic2jpg-test-\(getpid())-\(controller)"
        guard mkdir(directory, 0o755) == 0 else { return nil }
        for (name, value) in files {
            guard let handle = FileHandle(forWritingAtPath: directory + "/" + name) else {
                rmdir(directory)
                return nil
            }
            handle.write(Data(value.utf8))
            try? handle.close()
        }
        return (directory, ["/bin/sh", "-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"", directory])
    }

    @Test("Under taskset -c 0: one job, from the affinity mask", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset")))
    func affinity() throws {
        let lines = try shareLines(["/usr/bin/taskset", "-c", "0"])
        #expect(lines.first == "jobs: 1 (1 CPU: the affinity mask)", "\(lines)")
    }

    @Test("Under a cgroup CPU quota of one CPU: one job, from the quota", .enabled(if: isRoot, "cgroups need root"))
    func cpuQuota() throws {
        let v1 = FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cpu/cgroup.procs")
        let files = v1 ? ["cpu.cfs_period_us": "100000", "cpu.cfs_quota_us": "100000"] : ["cpu.max": "100000 100000"]
        guard let group = cgroup("cpu", files) else {
            print("ResourceShareEndToEndTests.cpuQuota: skipped (no writable cpu cgroup)")
            return
        }
        defer { rmdir(group.directory) }
        let lines = try shareLines(group.prefix)
        #expect(lines.first?.hasPrefix("jobs: 1 (1 CPU: the cgroup's CPU quota (") == true, "\(lines)")
    }

    @Test("Under a 2 GiB memory limit with -j 4: 512 MiB for each worker", .enabled(if: isRoot, "cgroups need root"))
    func memoryLimit() throws {
        let v1 = FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory/cgroup.procs")
        guard let group = cgroup("memory", [v1 ? "memory.limit_in_bytes" : "memory.max": String(2 << 30)]) else {
            print("ResourceShareEndToEndTests.memoryLimit: skipped (no writable memory cgroup)")
            return
        }
        defer { rmdir(group.directory) }
        let lines = try shareLines(group.prefix, ["-j", "4"])
        #expect(lines == ["jobs: 4 (--jobs)",
                          "memory per worker: 512 MiB (the cgroup's \(v1 ? "memory.limit_in_bytes" : "memory.max") (2048 MiB) over 4 workers)"], "\(lines)")
    }
}
