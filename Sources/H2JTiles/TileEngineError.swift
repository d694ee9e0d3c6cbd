import H2JSupport

/// A tile that could not be decoded, or decoded to something other than its parameter
/// sets promised; the message names the tile by its place in the grid and its item, e.g.
/// "tile 17 of 48 (item 18): the slice ends before the picture does (…)".
package struct TileEngineError: Error, Equatable, Sendable, CustomStringConvertible {
    let tile: UInt32
    /// The tile's cell in raster order (0-based) and the grid's number of cells.
    let cell: Int
    let cells: Int
    let reason: String
    package var description: String {
        cells == 1 ? "item \(tile): \(reason)" : "tile \(cell + 1) of \(cells) (item \(tile)): \(reason)"
    }
}

extension TileEngineError: CodedError {
    package var code: ErrorCode { .decodeFailed }
}
