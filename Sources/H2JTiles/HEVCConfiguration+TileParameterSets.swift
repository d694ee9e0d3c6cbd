import H2JContainer

extension HEVCConfiguration {
    /// Requires a VPS, an SPS and a PPS among the parameter sets. Decoder contexts reused
    /// from tile to tile keep parameter sets across tiles, so a tile whose slices refer to
    /// an id its own `hvcC` does not define could decode with a previous tile's; since a
    /// tile's own sets overwrite earlier ones with the same ids, a well-formed item that
    /// passes this check never sees stale ones.
    package func requireTileParameterSets() throws(TileDecodingError) {
        let types = Set(parameterSets.compactMap(HEVCConfiguration.nalUnitType))
        for (type, name) in [(32, "VPS"), (33, "SPS"), (34, "PPS")] where !types.contains(type) {
            throw TileDecodingError("the tile's 'hvcC' holds no \(name)")
        }
    }

    /// What every backend checks before decoding a tile: the parameter sets
    /// (`requireTileParameterSets`), and `data` split into its length-prefixed NAL units.
    package func tileUnits(in data: [UInt8]) throws(TileDecodingError) -> [Range<Int>] {
        try requireTileParameterSets()
        do {
            return try HEVCConfiguration.nalUnits(in: data, lengthSize: lengthSize)
        } catch {
            throw TileDecodingError(error.description)
        }
    }
}
