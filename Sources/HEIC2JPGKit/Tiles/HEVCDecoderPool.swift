import Synchronization

/// Idle libde265 contexts kept for reuse. A lane takes one for a run of tiles and puts
/// it back, so a context is created once per concurrent lane of the whole process,
/// not per tile or per file.
///
/// A context whose tile failed is dropped rather than returned: after a decoding error
/// its state is not trusted.
final class HEVCDecoderPool: Sendable {
    static let shared = HEVCDecoderPool()

    /// A decoder handed between threads. `@unchecked Sendable`: a decoder is never used by
    /// two threads at once; the pool's lock orders the hand-over.
    private struct Parked: @unchecked Sendable {
        let decoder: HEVCTileDecoder
    }

    private let idle = Mutex<[Parked]>([])

    func withDecoder<R>(_ body: (HEVCTileDecoder) throws -> R) throws -> R {
        let decoder = try idle.withLock { $0.popLast() }?.decoder ?? HEVCTileDecoder()
        let result = try body(decoder)
        let parked = Parked(decoder: decoder)
        idle.withLock { $0.append(parked) }
        return result
    }
}
