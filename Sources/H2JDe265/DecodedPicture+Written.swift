import CUnwrittenBlocks
import H2JTiles

extension DecodedPicture {
    /// Throws when a block of the luma plane still holds the pattern its buffer was
    /// allocated with (`CUnwrittenBlocks`): the picture's slices ended before it did, and
    /// that block is stale memory, not the photo.
    func checkWritten() throws(TileDecodingError) {
        var x: Int32 = 0, y: Int32 = 0
        let plane = planes[0]
        if h2j_unwritten_first_block(plane.pointer, plane.stride, Int32(width), Int32(height),
                                     Int32((bitDepth + 7) / 8), &x, &y) != 0 {
            throw TileDecodingError.unwritten(at: (Int(x), Int(y)))
        }
    }
}
