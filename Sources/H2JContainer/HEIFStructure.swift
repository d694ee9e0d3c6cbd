import H2JSupport

/// The parts of a HEIF container's `meta` box that decide what to convert and how:
/// items, references, properties, item locations and the primary item (ISO/IEC 23008-12 §9–10).
/// Item data is read on demand (`itemData`); typed property views are in `ItemProperties`.
///
/// Invariant: parsing never traps and allocates in proportion to the `meta` box size
/// (itself capped by `HEIFLimits.maxMetaBytes`) plus at most `HEIFLimits.maxExtents`
/// `iloc` extents, whatever the input.
package struct HEIFStructure: Sendable {
    package struct Item: Sendable, Equatable {
        package let id: UInt32
        /// Four-character item type: `hvc1`, `av01`, `grid`, `iovl`, `Exif`, `mime`, …
        package let type: String
        package let hidden: Bool
        /// `item_name` (UTF-8, may be empty).
        package let name: String
        /// For `mime` items, the MIME type (`content_type`), e.g. `application/rdf+xml` for XMP.
        package let contentType: String?
    }

    package struct Reference: Sendable, Equatable {
        /// `dimg`, `thmb`, `auxl`, `cdsc`, …
        package let type: String
        package let from: UInt32
        package let to: [UInt32]
    }

    /// One property from `ipco`, kept as its type and payload bytes.
    package struct Property: Sendable, Equatable {
        package let type: String
        package let payload: [UInt8]
    }

    package let brands: [String]
    /// A top-level `moov` box: the file also holds tracks (an image sequence, a video).
    package var hasImageSequence = false
    /// The `moov` box's tracks (empty without one, or when it is over
    /// `HEIFLimits.maxMetaBytes`: then only `hasImageSequence` says it is there).
    package internal(set) var sequenceTracks: [SequenceTrack] = []
    /// The `grpl` box's entity groups: stereo pairs, alternatives, bursts, albums.
    package internal(set) var entityGroups: [EntityGroup] = []
    /// `grpl` children that could not be read as groups.
    package internal(set) var unreadableGroups = 0
    /// The primary image: the `pitm` item, or, when that is a `tmap` item, its base image.
    package let primaryID: UInt32
    /// The `tmap` item the `pitm` names, whose base image is then `primaryID`.
    package internal(set) var primaryToneMap: UInt32?
    /// Where the `pitm`'s item ID lies in the file.
    package internal(set) var primaryField: Range<Int>?
    package let items: [UInt32: Item]
    package let references: [Reference]
    /// `ipco` properties in order; `ipma` indices are 1-based into this array.
    package let properties: [Property]
    /// Properties associated with each item, in `ipma` order.
    package let associations: [UInt32: [PropertyAssociation]]
    /// Where each item's data lies (`iloc`). Empty when `iloc` is absent or malformed;
    /// `locationError` then says why, and `itemData` reports it.
    package let locations: [UInt32: ItemLocation]
    /// Payload of `meta`'s `idat` box (data of items with construction method 1); empty if none.
    package let idat: [UInt8]
    /// Why `iloc` could not be used, reported lazily by `itemData` so that a file whose
    /// item data is never needed (libheif decodes it) is not refused at parse time.
    let locationError: HEIFError?
    /// Top-level boxes of the vendor types `VendorTrailers` knows (`sefd`, `mpvd`), the
    /// first of each type, with their payload ranges in the file.
    package internal(set) var vendorBoxes: [VendorBox] = []
    /// Bytes after the last complete top-level box (data appended outside any box).
    package internal(set) var bytesAfterLastBox: Range<Int>?

    /// A top-level box that is not part of the image itself but that a vendor put there.
    package struct VendorBox: Sendable, Equatable {
        package let type: String
        package let payload: Range<Int>
    }

    /// Top-level box types recorded in `vendorBoxes`.
    static let vendorBoxTypes: Set<String> = ["sefd", "mpvd"]

    /// Properties of `item` with the given type, in association order.
    package func properties(of item: UInt32, type: String) -> [Property] {
        associatedProperties(of: item).filter { $0.type == type }
    }

    /// All properties of `item` in association order (indices that name no property are skipped).
    func associatedProperties(of item: UInt32) -> [Property] {
        (associations[item] ?? []).compactMap(property(at:))
    }

    /// Types of the properties of `item` marked essential in `ipma`, in association order:
    /// a reader that does not understand one of them must not show the item.
    package func essentialPropertyTypes(of item: UInt32) -> [String] {
        (associations[item] ?? []).filter(\.essential).compactMap { property(at: $0)?.type }
    }

    /// The 1-based `ipco` index of `item`'s first property of `type`: items that share a
    /// property (tiles sharing one `hvcC`) share its index, so it is parsed once.
    package func propertyIndex(of item: UInt32, type: String) -> Int? {
        (associations[item] ?? []).first { property(at: $0)?.type == type }?.index
    }

    func property(at association: PropertyAssociation) -> Property? {
        association.index >= 1 && association.index <= properties.count ? properties[association.index - 1] : nil
    }

    /// Targets of references of `type` from `item`.
    package func referenced(from item: UInt32, type: String) -> [UInt32] {
        references.filter { $0.type == type && $0.from == item }.flatMap(\.to)
    }
}

extension HEIFStructure {
    /// Reads `ftyp` and `meta` from `source`, loading only the `meta` box into memory.
    package static func read(from source: ByteSource) throws(HEIFError) -> HEIFStructure {
        var brands: [String] = []
        var meta: [UInt8]?
        var metaStart = 0
        var vendorBoxes: [VendorBox] = []
        var hasMovie = false
        var tracks: [SequenceTrack] = []
        var offset = 0
        // Walk top-level boxes by their headers; read only ftyp and meta payloads.
        while offset <= source.size - 8 {
            let head = ByteReader(try source.containerBytes(at: offset, count: min(16, source.size - offset)))
            let box: BoxHeader?
            do {
                box = try BoxHeader.read(head, at: 0, limit: source.size - offset)
            } catch {
                // A box cut short after `meta` (usually `mdat`) is left to the item
                // extents to judge; before it, the file structure itself is broken.
                if meta != nil { break }  // (the rest is reported as bytes after the last box)
                let declared = head.u32(0).map { "\($0)" } ?? "?"
                throw .corruptStructure("the box at offset \(offset) declares \(declared) bytes, past the end of the \(source.size)-byte file")
            }
            guard let box else { break }
            if box.type == "ftyp" || box.type == "meta" {
                guard box.end - box.start <= HEIFLimits.maxMetaBytes else {
                    throw .limitExceeded("'\(box.type)' box of \(box.end - box.start) bytes")
                }
                let payload = try source.containerBytes(at: offset + box.payloadStart, count: box.payloadLength)
                if box.type == "ftyp" {
                    brands = parseBrands(payload)
                } else if meta == nil {
                    meta = payload
                    metaStart = offset + box.payloadStart
                }
            } else if box.type == "moov" {
                if !hasMovie, box.payloadLength <= HEIFLimits.maxMetaBytes {
                    tracks = SequenceTrack.parseTracks(moov: try source.containerBytes(at: offset + box.payloadStart, count: box.payloadLength))
                }
                hasMovie = true
            } else if vendorBoxTypes.contains(box.type), !vendorBoxes.contains(where: { $0.type == box.type }) {
                vendorBoxes.append(VendorBox(type: box.type, payload: (offset + box.payloadStart)..<(offset + box.end)))
            }
            offset += box.end
        }
        guard !brands.isEmpty else { throw .missingBox("ftyp") }
        guard let meta else {
            throw hasMovie ? .imageSequenceOnly(HEIFStructure.sequencePhrase(tracks)) : .missingBox("meta")
        }
        var structure = try parse(metaPayload: meta, brands: brands)
        structure.primaryField = structure.primaryField.map { (metaStart + $0.lowerBound)..<(metaStart + $0.upperBound) }
        structure.vendorBoxes = vendorBoxes
        structure.hasImageSequence = hasMovie
        structure.sequenceTracks = tracks
        structure.bytesAfterLastBox = offset < source.size ? offset..<source.size : nil
        return structure
    }

    static func parseBrands(_ payload: [UInt8]) -> [String] {
        let reader = ByteReader(payload)
        var brands: [String] = []
        if let major = reader.fourCC(0) { brands.append(major) }
        var offset = 8
        while let brand = reader.fourCC(offset) {
            brands.append(brand)
            offset += 4
        }
        return brands
    }

    /// Parses the payload of a `meta` FullBox (version/flags first).
    static func parse(metaPayload: [UInt8], brands: [String]) throws(HEIFError) -> HEIFStructure {
        let reader = ByteReader(metaPayload)
        var primaryID: UInt32?
        var items: [UInt32: Item] = [:]
        var references: [Reference] = []
        var properties: [Property] = []
        var associations: [UInt32: [PropertyAssociation]] = [:]
        var locations: [UInt32: ItemLocation]?
        var locationError: HEIFError?
        var idat: [UInt8]?
        var handler: String?
        var groups: (groups: [EntityGroup], unreadable: Int) = ([], 0)
        var primaryField: Range<Int>?
        for box in try BoxHeader.children(reader, from: 4, to: reader.count) {
            switch box.type {
            case "hdlr":
                handler = reader.fourCC(box.payloadStart + 8)
            case "pitm":
                let version = reader.u8(box.payloadStart) ?? 0
                primaryID = version == 0 ? reader.u16(box.payloadStart + 4).map(UInt32.init) : reader.u32(box.payloadStart + 4)
                guard primaryID != nil else { throw .truncatedBox("pitm") }
                primaryField = (box.payloadStart + 4)..<(box.payloadStart + (version == 0 ? 6 : 8))
            case "iinf":
                items = try parseItemInfo(reader, box)
            case "iref":
                references = try parseReferences(reader, box)
            case "iprp":
                (properties, associations) = try parseItemProperties(reader, box)
            case "iloc" where locations == nil && locationError == nil:
                do {
                    locations = try ItemLocation.parseTable(reader, box)
                } catch {
                    locationError = error
                }
            case "idat" where idat == nil:
                idat = reader.slice(box.payloadStart, box.payloadLength)
            case "grpl":
                groups = EntityGroup.parseGroups(reader, box)
            default:
                continue
            }
        }
        guard handler == "pict" else {
            throw handler == nil ? .missingBox("hdlr") : .malformedBox("hdlr", reason: "handler '\(handler ?? "")' is not 'pict'")
        }
        guard let named = primaryID else { throw .missingBox("pitm") }
        // A `pitm` naming a `tmap` item makes its base image (first `dimg` input) the photo.
        let toneMapBase = items[named]?.type == "tmap" ? references.first { $0.type == "dimg" && $0.from == named }?.to.first : nil
        var structure = HEIFStructure(brands: brands, primaryID: toneMapBase ?? named, items: items, references: references,
                                      properties: properties, associations: associations, locations: locations ?? [:],
                                      idat: idat ?? [], locationError: locationError)
        (structure.entityGroups, structure.unreadableGroups) = groups
        structure.primaryToneMap = toneMapBase == nil ? nil : named
        structure.primaryField = primaryField
        return structure
    }

    static func parseItemInfo(_ reader: ByteReader, _ box: BoxHeader) throws(HEIFError) -> [UInt32: Item] {
        guard let version = reader.u8(box.payloadStart) else { throw .truncatedBox("iinf") }
        let childrenStart = box.payloadStart + (version == 0 ? 6 : 8)
        guard childrenStart <= box.end else { throw .truncatedBox("iinf") }
        var items: [UInt32: Item] = [:]
        for entry in try BoxHeader.children(reader, from: childrenStart, to: box.end) where entry.type == "infe" {
            guard let infeVersion = reader.u8(entry.payloadStart), let flags = reader.u8(entry.payloadStart + 3) else {
                throw .truncatedBox("infe")
            }
            // Versions 0 and 1 predate item types; they describe no image.
            guard infeVersion >= 2 else { continue }
            let id: UInt32?
            let typeOffset: Int
            if infeVersion == 2 {
                id = reader.u16(entry.payloadStart + 4).map(UInt32.init)
                typeOffset = entry.payloadStart + 8
            } else {
                id = reader.u32(entry.payloadStart + 4)
                typeOffset = entry.payloadStart + 10
            }
            guard let id, typeOffset + 4 <= entry.end, let type = reader.fourCC(typeOffset) else { throw .truncatedBox("infe") }
            let (name, nameEnd) = reader.nullTerminatedString(from: typeOffset + 4, to: entry.end)
            let contentType = type == "mime" ? reader.nullTerminatedString(from: nameEnd, to: entry.end).string : nil
            items[id] = Item(id: id, type: type, hidden: flags & 1 != 0, name: name, contentType: contentType)
            guard items.count <= HEIFLimits.maxItems else { throw .limitExceeded("more than \(HEIFLimits.maxItems) items") }
        }
        return items
    }

    static func parseReferences(_ reader: ByteReader, _ box: BoxHeader) throws(HEIFError) -> [Reference] {
        guard let version = reader.u8(box.payloadStart) else { throw .truncatedBox("iref") }
        let idSize = version == 0 ? 2 : 4
        var references: [Reference] = []
        for entry in try BoxHeader.children(reader, from: box.payloadStart + 4, to: box.end) {
            func id(at offset: Int) throws(HEIFError) -> UInt32 {
                guard offset + idSize <= entry.end,
                      let value = idSize == 2 ? reader.u16(offset).map(UInt32.init) : reader.u32(offset)
                else { throw .truncatedBox("iref/\(entry.type)") }
                return value
            }
            let from = try id(at: entry.payloadStart)
            guard let count = reader.u16(entry.payloadStart + idSize) else { throw .truncatedBox("iref/\(entry.type)") }
            var to: [UInt32] = []
            var offset = entry.payloadStart + idSize + 2
            for _ in 0..<Int(count) {
                to.append(try id(at: offset))
                offset += idSize
            }
            references.append(Reference(type: entry.type, from: from, to: to))
        }
        return references
    }

    static func parseItemProperties(_ reader: ByteReader, _ box: BoxHeader) throws(HEIFError) -> ([Property], [UInt32: [PropertyAssociation]]) {
        var properties: [Property] = []
        var associations: [UInt32: [PropertyAssociation]] = [:]
        for child in try BoxHeader.children(reader, from: box.payloadStart, to: box.end) {
            if child.type == "ipco" {
                for property in try BoxHeader.children(reader, from: child.payloadStart, to: child.end) {
                    properties.append(Property(type: property.type, payload: reader.slice(property.payloadStart, property.payloadLength) ?? []))
                }
            } else if child.type == "ipma" {
                guard let version = reader.u8(child.payloadStart), let flags = reader.u8(child.payloadStart + 3),
                      let entryCount = reader.u32(child.payloadStart + 4) else { throw .truncatedBox("ipma") }
                var offset = child.payloadStart + 8
                let wideIndex = flags & 1 != 0
                for _ in 0..<min(Int(entryCount), HEIFLimits.maxItems) {
                    let itemID = version < 1 ? reader.u16(offset).map(UInt32.init) : reader.u32(offset)
                    offset += version < 1 ? 2 : 4
                    guard let itemID, let count = reader.u8(offset) else { throw .truncatedBox("ipma") }
                    offset += 1
                    var entries: [PropertyAssociation] = []
                    for _ in 0..<Int(count) {
                        // The top bit is `essential`; the rest is the 1-based property index.
                        if wideIndex {
                            guard let raw = reader.u16(offset) else { throw .truncatedBox("ipma") }
                            entries.append(PropertyAssociation(index: Int(raw & 0x7FFF), essential: raw & 0x8000 != 0))
                            offset += 2
                        } else {
                            guard let raw = reader.u8(offset) else { throw .truncatedBox("ipma") }
                            entries.append(PropertyAssociation(index: Int(raw & 0x7F), essential: raw & 0x80 != 0))
                            offset += 1
                        }
                    }
                    guard offset <= child.end else { throw .truncatedBox("ipma") }
                    associations[itemID, default: []].append(contentsOf: entries)
                }
            }
        }
        return (properties, associations)
    }
}

/// One `ipma` entry: which `ipco` property an item has, and whether a reader must
/// understand it to show the item.
package struct PropertyAssociation: Sendable, Equatable {
    /// 1-based index into `HEIFStructure.properties`; 0 means "no property".
    package let index: Int
    package let essential: Bool
}
