import H2JJob
import H2JSupport

/// `--shard K/N`: this run takes the candidates whose stable hash falls in shard K of N
/// (K from 0 to N - 1: Kubernetes' `$JOB_COMPLETION_INDEX`; the Slurm recipe's task T
/// takes T mod N). Every file falls in exactly one shard, whatever the machine or the
/// run; the state records each run's shard, so `status` can name the shards missing.
///
/// The hash is FNV-1a (64 bits) of the output's path relative to the input root without
/// its extension, so inputs that map to one output (`a.heic`, `a.HEIC`) always fall in
/// the same shard and their collision is still decided by one run.
package struct Shard: Sendable, Equatable {
    package let index: Int
    package let count: Int

    package init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// Whether the candidate at `relativePath` (under its root) is this shard's.
    package func contains(relativePath: String) -> Bool {
        Self.shard(of: relativePath, count: count) == index
    }

    /// The shard of `relativePath` among `count`.
    package static func shard(of relativePath: String, count: Int) -> Int {
        let key = Path.join(Path.parent(relativePath), Path.stem(Path.lastComponent(relativePath)))
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in PathBytes.bytes(key.hasPrefix("./") ? String(key.dropFirst(2)) : key) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return Int(hash % UInt64(count))
    }

    /// `--state` with `{shard}` replaced by K (`state-{shard}.db` → `state-3.db`).
    package func stateFile(_ path: String) -> String {
        path.split(separator: "{shard}", omittingEmptySubsequences: false).joined(separator: String(index))
    }
}
