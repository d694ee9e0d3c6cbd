#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// The CPUs and memory this process is given, read once: the CPUs it may run on (its
/// affinity mask, `Cpus_allowed_list` in `/proc/self/status`), its cgroup's CPU quota (v2 `cpu.max`, v1 `cpu.cfs_quota_us` over
/// `cpu.cfs_period_us`) and memory limit (v2 `memory.max`, v1 `memory.limit_in_bytes`),
/// the tightest of the process's cgroup and its ancestors. A container or a Slurm job
/// limits these, not the machine's CPU count.
package struct ResourceShare: Sendable, Equatable {
    /// CPUs to use: the affinity mask, lowered to the quota rounded down; at least 1.
    package var cpus: Int
    /// Where `cpus` came from, as `-v` says it.
    package var cpuSource: String
    /// The cgroup's memory limit in bytes, and the file that set it; nil without one.
    package var memoryLimit: Int?
    package var memorySource: String?

    /// This process's share, read once.
    package static let current = ResourceShare(affinity: affinityCount(SystemFiles().read("/proc/self/status")), files: SystemFiles())

    /// The share for `affinity` CPUs, reading the cgroup files through `files`.
    init(affinity: Int, files: some CgroupFiles) {
        let (quota, quotaSource) = Self.cpuQuota(files)
        cpus = max(1, min(affinity, quota.map { Int($0) } ?? affinity))
        if let quota, let quotaSource, Int(quota) < affinity {
            cpuSource = "\(quotaSource), below the affinity mask's \(affinity)"
        } else {
            cpuSource = "the affinity mask" + (quotaSource.map { ", within \($0)" } ?? "")
        }
        (memoryLimit, memorySource) = Self.memory(files)
    }

    /// The CPUs in the affinity mask, from `/proc/self/status`'s `Cpus_allowed_list`
    /// ("0-3,6"); the online count when it cannot be read.
    static func affinityCount(_ status: String?) -> Int {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        guard let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return online }
        var count = 0
        for range in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
            let bounds = range.split(separator: "-").compactMap { Int(String($0).trimmingWhitespace) }
            guard let first = bounds.first, let last = bounds.last, bounds.count <= 2, first <= last, last - first < 1 << 20 else { return online }
            count += last - first + 1
        }
        return count > 0 ? count : online
    }

    /// The tightest CPU quota, in CPUs (quota over period), over the cgroup and its ancestors.
    static func cpuQuota(_ files: some CgroupFiles) -> (Double?, String?) {
        var best: (Double, String)?
        for directory in files.directories(controller: "cpu") {
            let limit: Double?
            if directory.version == 2 {
                limit = files.read(directory.path + "/cpu.max").flatMap(Self.cpuMax)
            } else {
                limit = Self.cfsQuota(files.read(directory.path + "/cpu.cfs_quota_us"), files.read(directory.path + "/cpu.cfs_period_us"))
            }
            guard let limit, best.map({ limit < $0.0 }) ?? true else { continue }
            let file = directory.version == 2 ? "cpu.max" : "cpu.cfs_quota_us/cpu.cfs_period_us"
            best = (limit, "the cgroup's CPU quota (\(file): \(Self.format(limit)))")
        }
        return (best?.0, best?.1)
    }

    /// The tightest memory limit in bytes over the cgroup and its ancestors.
    static func memory(_ files: some CgroupFiles) -> (Int?, String?) {
        var best: (Int, String)?
        for directory in files.directories(controller: "memory") {
            let name = directory.version == 2 ? "memory.max" : "memory.limit_in_bytes"
            guard let text = files.read(directory.path + "/" + name), let limit = Self.memoryLimit(text),
                  best.map({ limit < $0.0 }) ?? true else { continue }
            best = (limit, "the cgroup's \(name)")
        }
        return (best?.0, best?.1)
    }

    /// v2 `cpu.max`: "QUOTA PERIOD" in CPUs, or nil for "max".
    static func cpuMax(_ text: String) -> Double? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]), quota > 0, period > 0 else { return nil }
        return quota / period
    }

    /// v1 quota over period in CPUs, or nil for -1 (none).
    static func cfsQuota(_ quota: String?, _ period: String?) -> Double? {
        guard let quota = quota.flatMap({ Double($0.trimmingWhitespace) }), let period = period.flatMap({ Double($0.trimmingWhitespace) }),
              quota > 0, period > 0 else { return nil }
        return quota / period
    }

    /// A memory limit in bytes, or nil for v2's "max" and v1's "no limit" (a page-rounded
    /// value near 2⁶³).
    static func memoryLimit(_ text: String) -> Int? {
        guard let value = Int(text.trimmingWhitespace), value > 0, value < 1 << 60 else { return nil }
        return value
    }

    static func format(_ cpus: Double) -> String {
        cpus == cpus.rounded() ? String(Int(cpus)) : String(Double(Int(cpus * 100)) / 100)
    }
}

/// The cgroup directories of this process that limit a controller, leaf first, and their
/// files; a protocol so tests can give a made-up hierarchy.
protocol CgroupFiles {
    func directories(controller: String) -> [(path: String, version: Int)]
    func read(_ path: String) -> String?
}

/// The real files: `/proc/self/cgroup`, and the hierarchies under `/sys/fs/cgroup`
/// (v2 at its root or at `unified/`, v1 at the controller's name or a joined name).
struct SystemFiles: CgroupFiles {
    var root = "/sys/fs/cgroup"
    var membership = "/proc/self/cgroup"

    func read(_ path: String) -> String? {
        POSIX.readFile(path).map { String(decoding: $0, as: UTF8.self) }
    }

    func directories(controller: String) -> [(path: String, version: Int)] {
        guard let text = read(membership) else { return [] }
        var found: [(String, Int)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0" && fields[1].isEmpty {
                for base in [root, root + "/unified"]
                where read(base + "/cgroup.controllers")?.split(whereSeparator: \.isWhitespace).contains(Substring(controller)) == true {
                    found += Self.ancestors(base, path).map { ($0, 2) }
                    break
                }
            } else if fields[1].split(separator: ",").contains(Substring(controller)) {
                for base in [root + "/" + fields[1], root + "/" + controller] where read(base + "/cgroup.procs") != nil || read(base + "/tasks") != nil {
                    found += Self.ancestors(base, path).map { ($0, 1) }
                    break
                }
            }
        }
        return found
    }

    /// `base/path`, then each parent up to `base`.
    static func ancestors(_ base: String, _ path: String) -> [String] {
        var components = path.split(separator: "/").map(String.init)
        var result: [String] = []
        while true {
            result.append(([base] + components).joined(separator: "/"))
            guard !components.isEmpty else { return result }
            components.removeLast()
        }
    }
}
