import H2JSupport
import Dispatch
import Synchronization

/// The threads that decode one file's tiles: `lanes` threads, started once per file,
/// taking tiles one at a time, in band order, from every band the caller has allowed.
///
/// There is no barrier between bands: a thread that finds no tile left in band k takes
/// one of band k + 1 as soon as the caller has allowed it, so no core idles while the
/// last tile of a band decodes. The crew runs apart from the caller, who meanwhile
/// encodes finished bands.
///
/// Use: `allow` bands in order, `waitFor` each allowed band in order, `stop` at
/// the end (it waits for every allowed band, so no thread still reads the source or
/// writes a buffer once the file is done).
///
/// `@unchecked Sendable`: `allowed` and `waited` belong to the caller's thread; the
/// threads share only the atomics, the mutex-guarded counts and the semaphores.
final class TileCrew: @unchecked Sendable {
    /// Decodes and places tile `tile` of band `band`.
    typealias Work = @Sendable (_ band: Int, _ tile: Int, _ decoder: any TileDecoding) throws -> Void

    /// Threads started.
    private var lanes: Int
    private let decoders: TileDecoderPool
    private let work: Work
    /// (band, tile) in the order threads take them.
    private let items: [(band: Int, tile: Int)]
    private let tileCounts: [Int]
    private let remaining: Mutex<[Int]>
    private let bandDone: [DispatchSemaphore]
    private let permits = DispatchSemaphore(value: 0)
    private let next = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let failure = Mutex<(any Error)?>(nil)
    private var allowed = 0
    private var waited = 0

    /// A crew for bands of `tileCounts[band]` tiles each; no tile starts before `allow`.
    /// It starts no more threads than there are tiles (a gain map of one tile gets one).
    /// When fewer threads than `lanes` can be created the crew runs with those it has;
    /// with none it throws, so no caller ever waits for a band nobody decodes.
    init(lanes: Int, decoders: TileDecoderPool, tileCounts: [Int], work: @escaping Work) throws(TileCrewError) {
        self.lanes = 0
        self.decoders = decoders
        self.work = work
        self.tileCounts = tileCounts
        items = tileCounts.enumerated().flatMap { band, count in (0..<count).map { (band, $0) } }
        remaining = Mutex(tileCounts)
        bandDone = tileCounts.map { _ in DispatchSemaphore(value: 0) }
        do {
            try addLanes(max(1, min(lanes, items.count)))
        } catch {
            guard self.lanes > 0 else { throw TileCrewError(cause: error) }
        }
    }

    /// Starts `count` more threads (a crew started with a lane left to other work takes it
    /// back); stops at the first that cannot be created, the crew going on with those it has.
    func addLanes(_ count: Int) throws(SystemError) {
        guard !stopping.load(ordering: .sequentiallyConsistent) else { return }
        for _ in 0..<max(0, count) {
            try POSIXThread.start { [self] in loop() }
            lanes += 1
        }
    }

    /// Lets the threads take the tiles of the next band (bands are allowed in order).
    func allow() {
        guard allowed < tileCounts.count else { return }
        for _ in 0..<tileCounts[allowed] { permits.signal() }
        allowed += 1
    }

    /// Number of bands allowed so far.
    var allowedBands: Int { allowed }

    /// Blocks until every tile of the next unwaited band is placed; rethrows the first
    /// error of the file (later tiles are skipped once one fails).
    func waitForNextBand() throws {
        precondition(waited < allowed, "waiting for a band that was not allowed")
        bandDone[waited].wait()
        waited += 1
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Waits for every allowed band, then lets the threads end; once, however often called.
    func stop() {
        guard !stopping.load(ordering: .sequentiallyConsistent) else { return }
        while waited < allowed {
            bandDone[waited].wait()
            waited += 1
        }
        stopping.store(true, ordering: .sequentiallyConsistent)
        for _ in 0..<lanes { permits.signal() }
    }

    private func loop() {
        while true {
            permits.wait()
            if stopping.load(ordering: .sequentiallyConsistent) { return }
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            let (band, tile) = items[index]
            if failure.withLock({ $0 == nil }) {
                do {
                    try decoders.withDecoder { decoder in try work(band, tile, decoder) }
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
            let finished = remaining.withLock { counts -> Bool in
                counts[band] -= 1
                return counts[band] == 0
            }
            if finished { bandDone[band].signal() }
        }
    }
}

/// Not one tile-decoding thread could be started.
package struct TileCrewError: Error, Equatable, CustomStringConvertible {
    let cause: SystemError
    package var description: String { "cannot start a tile-decoding thread: \(cause)" }
}

extension TileCrewError: CodedError {
    package var code: ErrorCode { .decodeFailed }
}
