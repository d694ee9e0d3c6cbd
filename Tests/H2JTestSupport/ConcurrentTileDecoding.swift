import Dispatch
import H2JTiles
import Synchronization

/// The check every `TileDecoding` backend must pass: separate instances, one per thread,
/// decode two reference streams in turn on two threads at once.
package enum ConcurrentTileDecoding {
    /// How many of 80 decodes differed from ffmpeg's planes, and the errors thrown.
    package static func mismatches(in directory: TemporaryDirectory,
                                   making make: @Sendable () throws -> any TileDecoding) throws -> (count: Int, failures: [String]) {
        let streams = [
            try HEVCReference.stream(width: 128, height: 96, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory),
            try HEVCReference.stream(width: 90, height: 62, pixelFormat: "gray", chroma: 0, depth: 8, in: directory),
        ]
        let mismatches = Mutex(0), failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            do {
                let decoder = try make()
                for round in 0..<40 {
                    let stream = streams[(thread + round) % 2]
                    let planes = try decoder.decode(stream.configuration, data: stream.data) { HEVCReference.packedPlanes($0) }
                    if planes != stream.reference { mismatches.withLock { $0 += 1 } }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        return (mismatches.withLock { $0 }, failures.withLock { $0 })
    }
}
