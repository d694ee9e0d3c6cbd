import CCrypto
import H2JSupport

/// SHA-256 through OpenSSL's libcrypto (EVP), for the provenance mark's `sourceSHA256`,
/// the published outputs' digests and the state.
///
/// Every converted source and every output is hashed, so speed matters: libcrypto uses
/// the CPU's SHA instructions where there are some, about 1.2 GB/s on the CI machine
/// against 159 MB/s for the portable Swift loop this replaced (which cost about 4 % of
/// a batch's throughput once outputs were hashed too; docs/benchmark.md).
///
/// Streaming: `update` any number of times, then `finalize` once. A value owns its
/// OpenSSL context: do not copy one mid-stream (the copies would share it).
package struct SHA256 {
    private final class Context {
        let pointer: OpaquePointer

        init() {
            // EVP_MD_CTX_new fails only when memory runs out, which a worker's limit turns
            // into its death anyway (WorkerDeath: out-of-memory).
            guard let pointer = EVP_MD_CTX_new(), EVP_DigestInit_ex(pointer, EVP_sha256(), nil) == 1 else {
                fatalError("OpenSSL cannot start a SHA-256 context")
            }
            self.pointer = pointer
        }

        deinit { EVP_MD_CTX_free(pointer) }
    }

    private let context = Context()

    package init() {}

    /// Hashes `bytes` after everything given so far.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context.pointer, base, bytes.count)
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest. Consumes the state: call once.
    package mutating func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context.pointer, &digest, &length)
        return digest
    }

    /// The digest of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    /// Lowercase hex, as `sha256sum` prints it.
    package static func hex(_ digest: [UInt8]) -> String { Hex.string(digest) }
}
