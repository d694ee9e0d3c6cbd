import H2JSupport

/// What a fitted EXIF gains on its way into the JPEG, after fitting so that it never
/// costs source data: the provenance ImageUniqueID, and the fields EXIF 2.32 requires of
/// a JPEG's EXIF that the source (written for a HEIF) lacks. All go through the
/// append-IFD edit (`TIFFIFDAppender`), one copy per IFD touched; nothing moves.
///
/// Every added value describes the JPEG we write, or is the value the standard defines
/// as the default, so nothing about the photo is made up:
///
/// | IFD | edit | why |
/// |---|---|---|
/// | IFD0 | ImageWidth/ImageLength removed | a JPEG's size lives in its frame header; EXIF forbids them in JPEG |
/// | IFD0 | X/YResolution 72/1, ResolutionUnit 2 (inches), when absent | required; the standard's defaults |
/// | IFD0 | YCbCrPositioning 1 (centred), when absent | required; libjpeg's chroma siting |
/// | ExifIFD | ComponentsConfiguration 1 2 3 0 (Y Cb Cr), FlashpixVersion 0100, when absent | required; what the JPEG holds |
/// | ExifIFD | PixelXDimension/PixelYDimension = output size, when absent | required (present ones are already patched in place) |
/// | ExifIFD | ColorSpace 1 (sRGB), when absent and the pixels were converted to sRGB | what the JPEG holds (a present one is patched in place) |
/// | ExifIFD | ImageUniqueID (the mark), when absent | provenance |
/// | GPS IFD | GPSVersionID, when the GPS IFD lacks it: 2.3.0.0 if it holds a tag EXIF 2.3 added (0x1F and up), else 2.2.0.0 | required; the lowest version its tags follow |
///
/// When the additions would push the EXIF over one APP1, only the ImageUniqueID is
/// tried; when even that does not fit, nothing is added. Either case is a warning.
enum EXIFAdditions {
    /// `tiff` with the additions made; warnings say what could not be added and why.
    /// `requiredFields` false: only the ImageUniqueID. `sRGB`: ColorSpace 1 is among them.
    static func apply(to tiff: [UInt8], width: UInt32, height: UInt32, imageUniqueID: String?,
                      requiredFields: Bool = true, sRGB: Bool = false, limit: Int) -> (tiff: [UInt8], warnings: [Warning]) {
        let dir: EXIFDirectory
        do { dir = try TIFFReader.read(tiff) } catch { return (tiff, []) }  // already fitted: cannot fail
        let conformance = requiredFields ? edits(dir, width: width, height: height, sRGB: sRGB) : []
        let mark = markEdit(dir, imageUniqueID)
        let all = merge(conformance, mark)
        guard !all.isEmpty else { return (tiff, []) }

        var warnings: [Warning] = []
        switch run(all, on: dir, limit: limit) {
        case .success(let edited): return (edited, [])
        case .failure(let reason):
            guard !conformance.isEmpty else {
                return (tiff, [Warning(.markNotInEXIF, "did not add the provenance ImageUniqueID to the EXIF: \(reason)")])
            }
            warnings.append(Warning(.exifFieldsNotAdded, "did not add the fields EXIF requires of a JPEG (\(names(conformance))): \(reason)"))
        }
        guard !mark.isEmpty else { return (tiff, warnings) }
        switch run(mark, on: dir, limit: limit) {
        case .success(let edited): return (edited, warnings)
        case .failure(let reason):
            warnings.append(Warning(.markNotInEXIF, "did not add the provenance ImageUniqueID to the EXIF: \(reason)"))
            return (tiff, warnings)
        }
    }

    /// One IFD's edit.
    struct Edit {
        let kind: EXIFIFDKind
        var values: [UInt16: TIFFValue]
        var removing: Set<UInt16>
    }

    /// The conformance edits `dir` needs (see the table above).
    static func edits(_ dir: EXIFDirectory, width: UInt32, height: UInt32, sRGB: Bool = false) -> [Edit] {
        let be = dir.bigEndian
        func missing(_ kind: EXIFIFDKind, _ candidates: [(UInt16, TIFFValue?)]) -> [UInt16: TIFFValue] {
            var values: [UInt16: TIFFValue] = [:]
            for (tag, value) in candidates where dir.entry(kind, tag) == nil {
                if let value { values[tag] = value }
            }
            return values
        }
        var result: [Edit] = []
        let ifd0Removing = Set([EXIFTag.imageWidth, EXIFTag.imageLength].filter { dir.entry(.ifd0, $0) != nil })
        let ifd0Values = missing(.ifd0, [
            (EXIFTag.xResolution, .rational(72, 1, bigEndian: be)), (EXIFTag.yResolution, .rational(72, 1, bigEndian: be)),
            (EXIFTag.resolutionUnit, .short([2], bigEndian: be)), (EXIFTag.yCbCrPositioning, .short([1], bigEndian: be)),
        ])
        if !ifd0Values.isEmpty || !ifd0Removing.isEmpty { result.append(Edit(kind: .ifd0, values: ifd0Values, removing: ifd0Removing)) }
        let exifValues = missing(.exif, [
            (EXIFTag.componentsConfiguration, .bytes([1, 2, 3, 0], type: TIFFFieldType.undefined)),
            (EXIFTag.flashpixVersion, .bytes(Array("0100".utf8), type: TIFFFieldType.undefined)),
            (EXIFTag.pixelXDimension, .long([width], bigEndian: be)), (EXIFTag.pixelYDimension, .long([height], bigEndian: be)),
            (EXIFTag.colorSpace, sRGB ? .short([1], bigEndian: be) : nil),
        ])
        if !exifValues.isEmpty { result.append(Edit(kind: .exif, values: exifValues, removing: [])) }
        if let gps = dir.ifd(.gps) {
            let minor: UInt8 = gps.entries.contains { $0.tag >= 0x1F } ? 3 : 2
            let gpsValues = missing(.gps, [(EXIFTag.gpsVersionID, .bytes([2, minor, 0, 0], type: TIFFFieldType.byte))])
            if !gpsValues.isEmpty { result.append(Edit(kind: .gps, values: gpsValues, removing: [])) }
        }
        return result
    }

    /// The ImageUniqueID edit, when there is an ID and the EXIF has none.
    static func markEdit(_ dir: EXIFDirectory, _ id: String?) -> [Edit] {
        guard let id, dir.entry(.exif, EXIFTag.imageUniqueID) == nil, let value = TIFFValue.ascii(id) else { return [] }
        return [Edit(kind: .exif, values: [EXIFTag.imageUniqueID: value], removing: [])]
    }

    /// `a` and `b` with edits of one IFD combined, so each IFD is copied once.
    static func merge(_ a: [Edit], _ b: [Edit]) -> [Edit] {
        var result = a
        for edit in b {
            if let i = result.firstIndex(where: { $0.kind == edit.kind }) {
                result[i].values.merge(edit.values) { old, _ in old }
                result[i].removing.formUnion(edit.removing)
            } else {
                result.append(edit)
            }
        }
        return result
    }

    /// The edits applied in order (children before IFD0, whose copy then carries the
    /// repointed pointers), or why they cannot be.
    static func run(_ edits: [Edit], on dir: EXIFDirectory, limit: Int) -> Result<[UInt8], EXIFAdditionError> {
        var current = dir
        let ordered = edits.filter { $0.kind != .ifd0 } + edits.filter { $0.kind == .ifd0 }
        do throws(EXIFError) {
            for edit in ordered {
                current = try TIFFIFDAppender.set(edit.values, removing: edit.removing, in: edit.kind, of: current)
            }
        } catch {
            return .failure(EXIFAdditionError(reason: error.description))
        }
        guard current.tiff.count <= limit else {
            return .failure(EXIFAdditionError(reason: "the EXIF would grow to \(EXIFText.bytes(current.tiff.count + 6)) bytes, "
                + "over the \(EXIFText.bytes(limit + 6)) a JPEG APP1 holds"))
        }
        return .success(current.tiff)
    }

    /// The IFDs `edits` touch, for a warning.
    static func names(_ edits: [Edit]) -> String {
        edits.map { "\($0.kind)" }.joined(separator: ", ")
    }
}

/// Why additions were not made; its text goes into a warning.
struct EXIFAdditionError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
