import H2JJob
import Testing
@testable import H2JBatch

/// The CPU and memory share read from a made-up cgroup hierarchy and affinity list.
@Suite("The CPUs and memory a run is given")
struct ResourceShareTests {
    /// Files by path, and the cgroup directories that limit each controller, leaf first.
    struct Files: CgroupFiles {
        var contents: [String: String]
        var cpu: [(path: String, version: Int)] = []
        var memory: [(path: String, version: Int)] = []
        func directories(controller: String) -> [(path: String, version: Int)] { controller == "cpu" ? cpu : memory }
        func read(_ path: String) -> String? { contents[path] }
    }

    @Test("The affinity list counts single CPUs and ranges; an unreadable one falls back to the online count")
    func affinity() {
        #expect(ResourceShare.affinityCount("Name:\theic2jpg\nCpus_allowed_list:\t0\n") == 1)
        #expect(ResourceShare.affinityCount("Cpus_allowed_list:\t0-3,6,8-9\n") == 7)
        #expect(ResourceShare.affinityCount("Cpus_allowed_list:\t3-1\n") >= 1)
        #expect(ResourceShare.affinityCount(nil) >= 1)
    }

    @Test("A v2 cpu.max below the affinity mask lowers the CPUs, rounded down, at least 1; 'max' does not")
    func cpuMax() {
        var files = Files(contents: ["/a/b/cpu.max": "150000 100000\n", "/a/cpu.max": "max 100000\n"], cpu: [("/a/b", 2), ("/a", 2)])
        var share = ResourceShare(affinity: 8, files: files)
        #expect(share.cpus == 1)
        #expect(share.cpuSource == "the cgroup's CPU quota (cpu.max: 1.5), below the affinity mask's 8")
        files.contents["/a/b/cpu.max"] = "50000 100000"
        #expect(ResourceShare(affinity: 8, files: files).cpus == 1)
        files.contents["/a/b/cpu.max"] = "max 100000"
        share = ResourceShare(affinity: 8, files: files)
        #expect(share.cpus == 8 && share.cpuSource == "the affinity mask")
        // An ancestor's quota limits too, and a quota above the mask leaves the mask.
        files.contents["/a/cpu.max"] = "300000 100000"
        #expect(ResourceShare(affinity: 8, files: files).cpus == 3)
        #expect(ResourceShare(affinity: 2, files: files).cpus == 2)
    }

    @Test("v1: cpu.cfs_quota_us over cpu.cfs_period_us, -1 for none; memory.limit_in_bytes, near 2^63 for none")
    func version1() {
        var files = Files(contents: ["/c/cpu.cfs_quota_us": "200000\n", "/c/cpu.cfs_period_us": "100000\n",
                                     "/m/memory.limit_in_bytes": "2147483648\n"],
                          cpu: [("/c", 1)], memory: [("/m", 1)])
        var share = ResourceShare(affinity: 64, files: files)
        #expect(share.cpus == 2)
        #expect(share.memoryLimit == 2 << 30 && share.memorySource == "the cgroup's memory.limit_in_bytes")
        files.contents["/c/cpu.cfs_quota_us"] = "-1"
        files.contents["/m/memory.limit_in_bytes"] = "9223372036854771712"
        share = ResourceShare(affinity: 64, files: files)
        #expect(share.cpus == 64 && share.memoryLimit == nil)
    }

    @Test("Without --max-memory the workers share the cgroup's memory: 2 GiB over -j 4 is 512 MiB each")
    func workerMemory() {
        let files = Files(contents: ["/m/memory.max": "2147483648\n"], memory: [("/m", 2)])
        let share = ResourceShare(affinity: 2, files: files)
        var request = BatchRequest()
        request.inputs = ["/"]
        request.jobs = 4
        #expect(request.workerMemory(share: share) == 512 << 20)
        request.maxMemory = 1 << 30
        #expect(request.workerMemory(share: share) == 1 << 30)
        request.maxMemory = nil
        let unlimited = ResourceShare(affinity: 2, files: Files(contents: [:]))
        #expect(request.workerMemory(share: unlimited) == WorkerLimits.defaultMemory(maxPixels: request.options.maxPixels))
    }

    @Test("The real hierarchy's directories run from the process's cgroup up to the root")
    func ancestors() {
        #expect(SystemFiles.ancestors("/sys/fs/cgroup", "/a/b") == ["/sys/fs/cgroup/a/b", "/sys/fs/cgroup/a", "/sys/fs/cgroup"])
        #expect(SystemFiles.ancestors("/sys/fs/cgroup", "/") == ["/sys/fs/cgroup"])
    }
}
