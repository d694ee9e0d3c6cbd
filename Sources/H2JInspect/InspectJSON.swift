import H2JMetadata
import H2JOutputPlan
import H2JSupport

/// `inspect --json`: one object per file, keys in a fixed order.
///
/// `{"file", "format", "bytes", "brands"?, "layout"?, "images", "groups"?, "toneMap"?, "appleGainMap"?, "gainMap"?, "tracks"?,
/// "outputs"?, "primary", "{TIFF}"?, "{Exif}"?, "{GPS}"?, "metadata", "provenance", "sourceMatches"?, "warnings"}`,
/// or `{"file", "error"}` for a file that could not be described. Absent values are
/// `null`; keys marked `?` appear only where they apply (HEIF brands, `layout` `mini`
/// for a low-overhead file, entity groups, gain maps (a JPEG's: Ultra HDR) and tracks, the outputs of a HEIF
/// file, EXIF groups with fields, `--source`).
enum InspectJSON {
    static func value(_ outcome: InspectOutcome) -> JSONValue {
        guard let properties = outcome.properties else {
            return .object([("file", .string(outcome.file)), ("error", .string(outcome.error ?? "unknown error"))])
        }
        var fields: [(String, JSONValue)] = [
            ("file", .string(outcome.file)),
            ("format", .string(properties.format)),
            ("bytes", .integer(properties.byteSize)),
        ]
        if let brands = properties.brands {
            fields.append(("brands", .object([("major", .string(brands.major)), ("compatible", .array(brands.compatible.map(JSONValue.string)))])))
        }
        if let layout = properties.layout { fields.append(("layout", .string(layout))) }
        fields.append(("images", .array(properties.images.map(image))))
        if !properties.groups.isEmpty {
            fields.append(("groups", .array(properties.groups.map { group in
                .object([("type", .string(group.type)), ("id", .integer(Int(group.id))),
                         ("entities", .array(group.entities.map { .integer(Int($0)) }))])
            })))
        }
        if let toneMap = properties.toneMap {
            var entry: [(String, JSONValue)] = [("id", .integer(Int(toneMap.id))), ("base", .integer(toneMap.base.map(Int.init))),
                                                ("gainMap", .integer(toneMap.gainMap.map(Int.init)))]
            switch toneMap.metadata {
            case .success(let metadata):
                entry += [("honoured", .bool(true)), ("minimumVersion", .integer(Int(metadata.minimumVersion))),
                          ("writerVersion", .integer(Int(metadata.writerVersion))), ("baseIsHDR", .bool(metadata.baseIsHDR)),
                          ("baseHeadroom", .number(metadata.baseHDRHeadroom.value)),
                          ("alternateHeadroom", .number(metadata.alternateHDRHeadroom.value)),
                          ("channels", .integer(metadata.channels.count))]
            case .failure(let refusal):
                entry += [("honoured", .bool(false)), ("reason", .string(refusal.description))]
            }
            fields.append(("toneMap", .object(entry)))
        }
        if let apple = properties.appleGainMap {
            fields.append(("appleGainMap", .object([("id", .integer(Int(apple.id))), ("headroom", .number(apple.headroom)),
                                                    ("from", .string(apple.origin?.rawValue))])))
        }
        if let gainMap = properties.gainMap { fields.append(("gainMap", self.gainMap(gainMap))) }
        if !properties.tracks.isEmpty {
            fields.append(("tracks", .array(properties.tracks.map { track in
                .object([("id", .integer(Int(track.id))), ("handler", .string(track.handler)),
                         ("width", .integer(track.width)), ("height", .integer(track.height)),
                         ("frames", .integer(track.samples))])
            })))
        }
        if let outputs = properties.outputs { fields.append(("outputs", self.outputs(outputs, file: outcome.file))) }
        fields.append(("primary", properties.primary.map(primary) ?? .null))
        for group in properties.exifGroups {
            fields.append((group.name, .object(group.fields.map { ($0.key, exifValue($0.value)) })))
        }
        let metadata = properties.metadata
        var sizes: [(String, JSONValue)] = [("exif", .integer(metadata.exif)), ("xmp", .integer(metadata.xmp))]
        if let extended = metadata.extendedXMP { sizes.append(("extendedXMP", .integer(extended))) }
        sizes.append(("icc", .integer(metadata.icc)))
        fields.append(("metadata", .object(sizes)))
        fields.append(("provenance", properties.provenance.map(provenance) ?? .null))
        if let matches = outcome.sourceMatches { fields.append(("sourceMatches", .bool(matches))) }
        fields.append(("warnings", .array(properties.warnings.map(JSONValue.string))))
        return .object(fields)
    }

    /// `{"options", "files": [{"name", "kind", "layout", "items", "of"?, "gainMap"?, "computedGainMap"?}], "notWritten"?, "failure"?,
    /// "hdr", "gainMapNotUsed"?, "notConverted", "leftOut"}`; names are beside `file`'s.
    static func outputs(_ outputs: ImageProperties.Outputs, file: String) -> JSONValue {
        let stem = Path.stem(Path.lastComponent(file)) + ".jpg"
        let choices = outputs.choices
        var fields: [(String, JSONValue)] = [
            ("options", .object([("images", .string(choices.images.rawValue)), ("stereo", .string(choices.stereo.rawValue)),
                                 ("aux", .array(AuxiliaryOutput.allCases.filter(choices.auxiliaries.contains).map { .string($0.rawValue) })),
                                 ("hdr", .string(choices.hdr.rawValue)), ("metadata", .string(choices.metadata.rawValue))])),
            ("files", .array(outputs.files.map { output in
                var entry: [(String, JSONValue)] = [("name", .string(output.name.path(besides: stem))), ("kind", .string(output.kind)),
                                                    ("layout", .string(output.layout)), ("items", .array(output.items.map { .integer(Int($0)) }))]
                if let master = output.of { entry.append(("of", .integer(Int(master)))) }
                if let gainMap = output.gainMap { entry.append(("gainMap", .integer(Int(gainMap)))) }
                if output.computedGainMap { entry.append(("computedGainMap", .bool(true))) }
                return .object(entry)
            })),
        ]
        if !outputs.notWritten.isEmpty {
            fields.append(("notWritten", .array(outputs.notWritten.map { skipped in
                .object([("name", .string(skipped.name.path(besides: stem))), ("items", .array(skipped.items.map { .integer(Int($0)) })),
                         ("reason", .string(skipped.reason))])
            })))
        }
        if let failure = outputs.failure { fields.append(("failure", .string(failure))) }
        fields.append(("hdr", .string(outputs.hdr)))
        if let reason = outputs.gainMapNotUsed { fields.append(("gainMapNotUsed", .string(reason))) }
        fields.append(("notConverted", .array(outputs.notConverted.map(JSONValue.string))))
        fields.append(("leftOut", .array(outputs.leftOut.map(JSONValue.string))))
        return .object(fields)
    }

    /// `{"image", "width", "height", "hdrgm", "iso21496", "announced", "baseHeadroom", "alternateHeadroom", "channels",
    /// "reason"?}`: headrooms in stops (null when not given), `channels` of the ISO metadata (null without it),
    /// `reason` why its ISO metadata is ignored.
    static func gainMap(_ gainMap: JPEGGainMap) -> JSONValue {
        var fields: [(String, JSONValue)] = [("image", .integer(gainMap.image)), ("width", .integer(gainMap.size?.width)),
                                             ("height", .integer(gainMap.size?.height)), ("hdrgm", .bool(gainMap.hdrgm)),
                                             ("iso21496", .bool(gainMap.iso21496)), ("announced", .bool(gainMap.announced)),
                                             ("baseHeadroom", .number(gainMap.headrooms?.base)),
                                             ("alternateHeadroom", .number(gainMap.headrooms?.alternate))]
        switch gainMap.metadata {
        case .success(let iso)?: fields.append(("channels", .integer(iso.channels.count)))
        case .failure(let refusal)?: fields += [("channels", .null), ("reason", .string(refusal.description))]
        case nil: fields.append(("channels", .null))
        }
        return .object(fields)
    }

    static func image(_ image: ImageProperties.Image) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let id = image.id { fields.append(("id", .integer(Int(id)))) }
        fields += [
            ("type", .string(image.type)),
            ("width", .integer(image.size?.width)), ("height", .integer(image.size?.height)),
            ("displayWidth", .integer(image.displaySize?.width)), ("displayHeight", .integer(image.displaySize?.height)),
            ("primary", .bool(image.isPrimary)),
        ]
        if image.id != nil { fields.append(("hidden", .bool(image.hidden))) }
        if let master = image.thumbnailOf { fields.append(("thumbnailOf", .integer(Int(master)))) }
        if !image.inputs.isEmpty { fields.append(("inputs", .array(image.inputs.map { .integer(Int($0)) }))) }
        if let derived = image.inputOf { fields.append(("inputOf", .integer(Int(derived)))) }
        if let auxiliary = image.auxiliary {
            fields.append(("auxiliary", .object([("kind", .string(auxiliary.kind)), ("urn", .string(auxiliary.urn)),
                                                 ("of", .integer(auxiliary.of.map(Int.init)))])))
        }
        if let tiles = image.tiles {
            fields.append(("tiles", .integer(tiles)))
            fields.append(("gridColumns", .integer(image.grid?.columns)))
            fields.append(("gridRows", .integer(image.grid?.rows)))
        }
        if let multiPicture = image.multiPicture {
            fields.append(("multiPicture", .object([("type", .string(multiPicture.type)), ("bytes", .integer(multiPicture.bytes)),
                                                    ("start", .integer(multiPicture.start))])))
        }
        if let components = image.components { fields.append(("components", .integer(components))) }
        if let coding = image.coding { fields.append(("coding", .string(coding))) }
        return .object(fields)
    }

    static func primary(_ primary: ImageProperties.Primary) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let id = primary.id { fields.append(("id", .integer(Int(id)))) }
        let icc: JSONValue = primary.icc.map { icc in
            .object([("description", .string(icc.description)), ("version", .string(icc.version)), ("bytes", .integer(icc.bytes))])
        } ?? .null
        let nclx: JSONValue = primary.nclx.map { nclx in
            .object([("primaries", .integer(nclx.primaries)), ("transfer", .integer(nclx.transfer)),
                     ("matrix", .integer(nclx.matrix)), ("fullRange", .bool(nclx.fullRange))])
        } ?? .null
        fields += [
            ("bitDepth", .integer(primary.bitDepth)),
            ("chroma", .string(primary.chroma)),
            ("colour", .object([("icc", icc), ("nclx", nclx)])),
        ]
        var orientation: [(String, JSONValue)] = []
        if primary.id != nil {
            fields.append(("transforms", .array(primary.transforms.map(JSONValue.string))))
            orientation = [("irot", .integer(primary.rotation)), ("imir", .string(primary.mirror.map(HEIFDescriber.name)))]
        }
        orientation.append(("exif", .integer(primary.exifOrientation)))
        fields.append(("orientation", .object(orientation)))
        return .object(fields)
    }

    /// Rationals as numbers (ImageIO gives them as doubles); a zero denominator is `null`.
    static func exifValue(_ value: ImageProperties.EXIFValue) -> JSONValue {
        switch value {
        case .text(let text): .string(text)
        case .integer(let integer): .integer(integer)
        case .rational(let rational): rational.doubleValue.map(JSONValue.number) ?? .null
        case .number(let number): .number(number)
        }
    }

    static func provenance(_ mark: ProvenanceMark) -> JSONValue {
        .object([
            ("sourceName", mark.sourceName.map(JSONValue.string) ?? .null),
            ("sourceSHA256", .string(mark.sourceSHA256)),
            ("mode", .string(mark.mode.rawValue)),
            ("quality", .integer(mark.quality)),
            ("version", .string(mark.version)),
        ])
    }
}
