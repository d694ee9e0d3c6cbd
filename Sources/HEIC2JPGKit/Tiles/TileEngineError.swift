/// A tile that decoded to something other than its parameter sets promised.
struct TileEngineError: Error, Equatable, Sendable, CustomStringConvertible {
    let tile: UInt32
    let reason: String
    var description: String { "tile \(tile): \(reason)" }
}
