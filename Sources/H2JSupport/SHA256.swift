#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 (FIPS 180-4), for the provenance mark's `sourceSHA256`.
///
/// Streaming: `update` any number of times, then `finalize`. The library has no
/// Foundation or CryptoKit to borrow from, and the digest must match `sha256sum`
/// (the tests check that). Speed matters a little: every converted source is hashed,
/// so the compression loop works on raw buffer pointers without per-byte checks.
package struct SHA256 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    /// Bytes not yet compressed (always fewer than 64).
    private var pending: [UInt8] = []
    /// Total bytes hashed so far.
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    package init() {}

    /// Hashes `bytes` after everything given so far.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let take = min(64 - pending.count, rest.count)
            pending += rest.prefix(take)
            rest = rest.dropFirst(take)
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = rest.count / 64 * 64
        if whole > 0 {
            compress(UnsafeRawBufferPointer(rebasing: rest.prefix(whole)))
        }
        pending += rest.dropFirst(whole)
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Lowercase hex SHA-256 of the whole file open at `fd`, read with `pread` in 1 MiB
    /// chunks (the file offset is left alone); nil when a read fails.
    package static func hex(ofDescriptor fd: Int32) -> String? {
        var hash = SHA256()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return hex(hash.finalize()) }
            chunk.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            offset += off_t(count)
        }
    }

    /// The 32-byte digest. Consumes the state: call once.
    package mutating func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBytes { compress($0) }
        pending = []
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.flatMap { w in [UInt8(w >> 24), UInt8(truncatingIfNeeded: w >> 16), UInt8(truncatingIfNeeded: w >> 8), UInt8(truncatingIfNeeded: w)] }
    }

    /// The digest of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    /// Lowercase hex, as `sha256sum` prints it.
    package static func hex(_ digest: [UInt8]) -> String { Hex.string(digest) }

    /// Compresses whole 64-byte blocks; `blocks.count` is a multiple of 64.
    private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        var w = [UInt32](repeating: 0, count: 64)
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        Self.k.withUnsafeBufferPointer { k in
            w.withUnsafeMutableBufferPointer { w in
                var base = 0
                while base + 64 <= blocks.count {
                    for i in 0..<16 {
                        let o = base + 4 * i
                        w[i] = UInt32(blocks[o]) << 24 | UInt32(blocks[o + 1]) << 16 | UInt32(blocks[o + 2]) << 8 | UInt32(blocks[o + 3])
                    }
                    for i in 16..<64 {
                        let a = w[i - 15], b = w[i - 2]
                        let s0 = a.rotr(7) ^ a.rotr(18) ^ (a >> 3)
                        let s1 = b.rotr(17) ^ b.rotr(19) ^ (b >> 10)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for i in 0..<64 {
                        let s1 = e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)
                        let ch = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ ch &+ k[i] &+ w[i]
                        let s0 = a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)
                        let maj = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ maj
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    base += 64
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }
}

private extension UInt32 {
    @inline(__always) func rotr(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
