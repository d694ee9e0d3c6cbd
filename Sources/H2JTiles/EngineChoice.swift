import H2JContainer
import H2JSupport

/// Which engine converts a file, decided before decoding.
///
/// `make` is the capability check: anything the tile engine does not take, or would have
/// to approximate, goes to libheif with the reason, before any pixel is decoded. Files
/// that are broken, not merely unusual, throw instead. The caller has checked that
/// every item's data lies inside the file (`HEIFStructure.checkItemsInFile`).
package enum EngineChoice {
    case tiles(TiledImage)
    /// libheif's full decode; `reason` says what the tile engine does not take.
    case libheif(reason: String)

    static let knownEssentialProperties: Set<String> = ["hvcC", "ispe", "irot", "imir", "clap", "colr", "pixi", "auxC"]

    /// The capability check. Throws only for defects that no engine could get past.
    package static func make(_ structure: HEIFStructure, image primary: ImageItem, source: ByteSource) throws(HEIFError) -> EngineChoice {
        let id = primary.id
        guard ["hvc1", "grid"].contains(primary.itemType) else { return .libheif(reason: "'\(primary.itemType)' image") }
        if let unknown = structure.essentialPropertyTypes(of: id).first(where: { !knownEssentialProperties.contains($0) }) {
            return .libheif(reason: "essential property '\(unknown)'")
        }
        let alpha = structure.references.contains { reference in
            reference.type == "auxl" && reference.to.contains(id) && structure.auxiliaryType(of: reference.from).map(AuxiliaryKind.init(urn:)) == .alpha
        }
        if alpha { return .libheif(reason: "alpha channel") }

        let cells: [UInt32]
        let columns: Int, rows: Int
        var canvas: (width: Int, height: Int)?
        switch primary.itemType {
        case "hvc1":
            cells = [id]
            (columns, rows) = (1, 1)
        default: // "grid"
            let grid = try ImageGrid.parse(structure.itemData(id, from: source, maxBytes: 64))
            cells = structure.referenced(from: id, type: "dimg")
            guard cells.count == grid.rows * grid.columns else {
                return .libheif(reason: "grid has \(cells.count) tiles for \(grid.columns)×\(grid.rows) cells")
            }
            (columns, rows) = (grid.columns, grid.rows)
            canvas = (grid.outputWidth, grid.outputHeight)
        }

        var configurations: [HEVCConfiguration] = []
        var signals: [NCLX?] = []
        var configurationIndex: [Int: Int] = [:]
        var tiles: [TiledImage.Tile] = []
        var format: HEVCSequenceParameters?
        for (index, tile) in cells.enumerated() {
            guard structure.items[tile]?.type == "hvc1" else {
                return .libheif(reason: "tile \(tile) is '\(structure.items[tile]?.type ?? "?")', not HEVC")
            }
            guard let property = structure.propertyIndex(of: tile, type: "hvcC") else {
                return .libheif(reason: "tile \(tile) has no 'hvcC'")
            }
            if tile != id, !(try structure.transforms(of: tile)).isEmpty {
                return .libheif(reason: "tile \(tile) carries its own transforms")
            }
            if let unknown = structure.essentialPropertyTypes(of: tile).first(where: { !knownEssentialProperties.contains($0) }) {
                return .libheif(reason: "essential property '\(unknown)' on tile \(tile)")
            }
            let slot: Int
            if let known = configurationIndex[property] {
                slot = known
            } else {
                let configuration = try HEVCConfiguration.parse(structure.properties[property - 1].payload)
                guard let sps = configuration.parameterSets.lazy.compactMap(HEVCSequenceParameters.parse(nal:)).first else {
                    return .libheif(reason: "tile \(tile) has no readable sequence parameter set")
                }
                if let format, !format.sameFormat(as: sps) {
                    return .libheif(reason: "tiles differ in size or format")
                }
                format = sps
                slot = configurations.count
                configurations.append(configuration)
                signals.append(sps.videoSignal)
                configurationIndex[property] = slot
            }
            let nclx = structure.colour(of: tile).nclx
            if nclx == nil, let refusal = refusal(of: signals[slot], tile: tile) { return .libheif(reason: refusal) }
            tiles.append(TiledImage.Tile(id: tile, column: index % columns, row: index / columns,
                                         configuration: slot, nclx: nclx))
        }
        guard let format else { return .libheif(reason: "no tiles") }
        guard format.bitDepthLuma == 8, format.chromaFormat == 0 || format.bitDepthChroma == 8 else {
            return .libheif(reason: "\(max(format.bitDepthLuma, format.bitDepthChroma))-bit samples")
        }
        guard format.chromaFormat <= 1 else {
            return .libheif(reason: format.chromaFormat == 2 ? "4:2:2 chroma" : "4:4:4 chroma")
        }
        let monochrome = format.chromaFormat == 0
        // Declared sizes must agree with the coded ones: `ispe` is what libheif (and a
        // decompression-bomb check) goes by.
        for tile in cells {
            if let declared = structure.imageSize(of: tile), declared.width != format.width || declared.height != format.height {
                return .libheif(reason: "item \(tile) declares \(declared.width)×\(declared.height) in 'ispe' but is coded \(format.width)×\(format.height)")
            }
        }
        let (canvasWidth, canvasHeight) = canvas ?? (format.width, format.height)
        guard canvasWidth > 0, canvasHeight > 0,
              columns * format.width >= canvasWidth, rows * format.height >= canvasHeight else {
            return .libheif(reason: "\(columns)×\(rows) tiles of \(format.width)×\(format.height) do not cover \(canvasWidth)×\(canvasHeight)")
        }
        let transforms = try structure.transforms(of: id)
        let geometry: PlaneGeometry
        do {
            geometry = try PlaneGeometry(canvasWidth: canvasWidth, canvasHeight: canvasHeight, transforms: transforms)
        } catch {
            return .libheif(reason: error.description)
        }
        if !monochrome && !geometry.keepsChromaBlocks {
            return .libheif(reason: "an odd crop, rotation or mirror would split 4:2:0 chroma blocks")
        }
        return .tiles(TiledImage(tiles: tiles, columns: columns, rows: rows, tileWidth: format.width,
                                 tileHeight: format.height, configurations: configurations,
                                 // Only tiles with their own nclx have no readable signal.
                                 signalColours: signals.map { $0 ?? .unspecifiedVideoSignal },
                                 monochrome: monochrome, geometry: geometry))
    }

    /// Why a tile that takes its colour from its SPS cannot: the SPS is unreadable past its
    /// head, or its matrix is no YCbCr matrix (H.273: 11 Y'D'zD'x, 13 constant luminance,
    /// 14 ICtCp). Reserved matrices read as BT.601, as an unknown nclx matrix does.
    private static func refusal(of signal: NCLX?, tile: UInt32) -> String? {
        guard let signal else { return "tile \(tile)'s sequence parameter set cannot be read up to its colour description" }
        guard ![11, 13, 14].contains(signal.matrix) else { return "tile \(tile)'s bitstream has matrix \(signal.matrix), not a plain YCbCr matrix" }
        return nil
    }
}
