import Synchronization

/// Idle tile decoders kept for reuse. A lane takes one for a run of tiles and puts it
/// back, so a decoder is created once per concurrent lane of the pool's owner (a run),
/// not per tile or per file. The owner injects the pool and, through `make`, the codec.
///
/// A decoder whose tile failed is dropped rather than returned: after a decoding error
/// its state is not trusted.
package final class TileDecoderPool: Sendable {
    private let make: @Sendable () throws -> any TileDecoding

    /// `make` creates a decoder when none is idle; what it throws fails the tile.
    package init(make: @escaping @Sendable () throws -> any TileDecoding) {
        self.make = make
    }

    /// A decoder handed between threads. `@unchecked Sendable`: a decoder is never used by
    /// two threads at once; the pool's lock orders the hand-over.
    private struct Parked: @unchecked Sendable {
        let decoder: any TileDecoding
    }

    private let idle = Mutex<[Parked]>([])

    package func withDecoder<R>(_ body: (any TileDecoding) throws -> R) throws -> R {
        let decoder = try idle.withLock { $0.popLast() }?.decoder ?? make()
        let result = try body(decoder)
        let parked = Parked(decoder: decoder)
        idle.withLock { $0.append(parked) }
        return result
    }
}
