import H2JContainer

/// A primary image the tile engine converts: an HEVC `grid` (a single HEVC item counts
/// as a 1×1 grid) of 8-bit 4:2:0 or 4:0:0 tiles, with its transforms composed. Only
/// `EngineChoice.make` creates one, after checking everything listed there.
package struct TiledImage: Sendable {
    package struct Tile: Sendable {
        package let id: UInt32
        /// Grid cell (raster order in `dimg`).
        package let column: Int
        package let row: Int
        /// Index into `configurations`.
        package let configuration: Int
        /// The tile item's own nclx `colr`, which overrides its bitstream's VUI (as in libheif).
        package let nclx: NCLX?
    }

    package let tiles: [Tile]
    let columns: Int
    let rows: Int
    /// Decoded tile size (all tiles are equal).
    package let tileWidth: Int
    package let tileHeight: Int
    /// Distinct `hvcC` configurations, shared by index.
    package let configurations: [HEVCConfiguration]
    /// Each configuration's SPS video signal type as colour (by index): what a tile
    /// without its own nclx `colr` is in. Read by our SPS parse, never from the decoder.
    package let signalColours: [NCLX]
    package let monochrome: Bool
    package let geometry: PlaneGeometry

    /// A single coded item rather than a grid: its one band is the whole image.
    var isOneTile: Bool { tiles.count == 1 && columns == 1 && rows == 1 }

    /// Compressed size limit of one tile: far above any camera's (a 512×512 tile is
    /// tens of KB; a whole 50 MP single-item image a few MB).
    static let maxTileBytes = 256 << 20
}
