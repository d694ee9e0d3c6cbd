import H2JSupport

/// ISO 21496-1 gain-map metadata as a `tmap` item's body holds it: a version byte (0),
/// then the payload a JPEG's ISO APP2 carries: minimum and writer versions, flags, the
/// base and alternate HDR headrooms, and per channel (one, or three when multichannel)
/// the gain map's min, max, gamma and the two offsets, each a fraction (or, with the
/// common-denominator flag, numerators over one shared denominator).
///
/// Invariant: parsing never traps; every refusal says why, in the terms of ISO 21496-1's
/// rules on what a reader must ignore.
package struct GainMapMetadata: Sendable, Equatable {
    /// A signed or unsigned 32-bit numerator over an unsigned 32-bit denominator.
    package struct Fraction: Sendable, Equatable {
        package let numerator: Int64
        package let denominator: UInt32

        package init(_ numerator: Int64, _ denominator: UInt32) {
            self.numerator = numerator
            self.denominator = denominator
        }

        /// nil when the denominator is 0.
        package var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
    }

    /// One colour channel's mapping (ISO 21496-1 §5.2).
    package struct Channel: Sendable, Equatable {
        package let min, max, gamma, baseOffset, alternateOffset: Fraction

        package init(min: Fraction, max: Fraction, gamma: Fraction, baseOffset: Fraction, alternateOffset: Fraction) {
            self.min = min
            self.max = max
            self.gamma = gamma
            self.baseOffset = baseOffset
            self.alternateOffset = alternateOffset
        }
    }

    /// The metadata version this reader understands; a `minimum_version` above it means
    /// the metadata must be ignored.
    package static let supportedVersion: UInt16 = 0

    package let minimumVersion: UInt16
    package let writerVersion: UInt16
    package let useBaseColourSpace: Bool
    /// log2 of the headrooms, in stops.
    package let baseHDRHeadroom: Fraction
    package let alternateHDRHeadroom: Fraction
    /// One channel, or three (red, green, blue).
    package let channels: [Channel]

    /// Why metadata is not used: the reader must then show the base image only.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// Parses a `tmap` item's body.
    package static func parse(_ bytes: [UInt8]) -> Result<GainMapMetadata, Refusal> {
        func refuse(_ reason: String) -> Result<GainMapMetadata, Refusal> { .failure(Refusal(description: reason)) }
        let reader = ByteReader(bytes)
        guard let version = reader.u8(0) else { return refuse("the 'tmap' item is empty") }
        guard version == 0 else { return refuse("'tmap' version \(version) is not supported") }
        guard let minimum = reader.u16(1), let writer = reader.u16(3), let flags = reader.u8(5) else {
            return refuse("the gain-map metadata is cut short")
        }
        guard minimum <= supportedVersion else { return refuse("gain-map metadata minimum version \(minimum) is not supported") }
        guard writer >= minimum else { return refuse("writer version \(writer) is below the minimum version \(minimum)") }
        let channelCount = flags & 0x80 != 0 ? 3 : 1
        let commonDenominator = flags & 0x08 != 0
        var offset = 6
        var shared: UInt32?
        if commonDenominator {
            guard let denominator = reader.u32(offset) else { return refuse("the gain-map metadata is cut short") }
            shared = denominator
            offset += 4
        }
        /// The next fraction: a numerator (signed or not), then its denominator unless shared.
        func fraction(signed: Bool) -> Fraction? {
            guard let raw = reader.u32(offset) else { return nil }
            offset += 4
            let numerator = signed ? Int64(Int32(bitPattern: raw)) : Int64(raw)
            if let shared { return Fraction(numerator, shared) }
            guard let denominator = reader.u32(offset) else { return nil }
            offset += 4
            return Fraction(numerator, denominator)
        }
        guard let base = fraction(signed: false), let alternate = fraction(signed: false) else {
            return refuse("the gain-map metadata is cut short")
        }
        var channels: [Channel] = []
        for _ in 0..<channelCount {
            guard let min = fraction(signed: true), let max = fraction(signed: true), let gamma = fraction(signed: false),
                  let baseOffset = fraction(signed: true), let alternateOffset = fraction(signed: true) else {
                return refuse("the gain-map metadata is cut short")
            }
            channels.append(Channel(min: min, max: max, gamma: gamma, baseOffset: baseOffset, alternateOffset: alternateOffset))
        }
        // Bytes a newer writer added are allowed; from a writer of this version they are an error.
        if writer <= supportedVersion && offset != bytes.count {
            return refuse("\(bytes.count - offset) bytes follow the gain-map metadata of writer version \(writer)")
        }
        let metadata = GainMapMetadata(minimumVersion: minimum, writerVersion: writer, useBaseColourSpace: flags & 0x40 != 0,
                                       baseHDRHeadroom: base, alternateHDRHeadroom: alternate, channels: channels)
        if let invalid = metadata.invalidValue { return refuse(invalid) }
        return .success(metadata)
    }

    /// The first value a reader cannot use: a zero denominator, a gamma that is not
    /// positive, a min above its max.
    var invalidValue: String? {
        let all = [("base HDR headroom", baseHDRHeadroom), ("alternate HDR headroom", alternateHDRHeadroom)]
            + channels.flatMap { [("gain map min", $0.min), ("gain map max", $0.max), ("gamma", $0.gamma),
                                  ("base offset", $0.baseOffset), ("alternate offset", $0.alternateOffset)] }
        if let zero = all.first(where: { $0.1.denominator == 0 }) { return "\(zero.0) has a zero denominator" }
        for channel in channels {
            if let gamma = channel.gamma.value, gamma <= 0 { return "gamma \(gamma) is not positive" }
            if let min = channel.min.value, let max = channel.max.value, min > max { return "gain map min \(min) is above its max \(max)" }
        }
        return nil
    }
}

/// A `tmap` item (an ISO 21496-1 tone-mapped image) and whether a reader must honour it.
package struct ToneMappedImage: Sendable, Equatable {
    package let id: UInt32
    /// Its `dimg` inputs: the base image, then the gain map (when there are two).
    package let base: UInt32?
    package let gainMap: UInt32?
    /// The metadata, or why ISO 21496-1 says to ignore the item (the base is then shown alone).
    package let metadata: Result<GainMapMetadata, GainMapMetadata.Refusal>
}

extension HEIFStructure {
    /// The file's `tmap` item, checked as ISO 21496-1 and ISO/IEC 23008-12 ask before it
    /// is used: the file has the `tmap` brand; an `altr` group lists the tmap before its
    /// base, or the `pitm` names it (prefers it); it derives from the primary and one gain map; its metadata
    /// parses with a supported version and valid values. nil without a `tmap` item.
    package func toneMappedImage(from source: ByteSource) -> ToneMappedImage? {
        guard let item = items.values.filter({ $0.type == "tmap" }).min(by: { $0.id < $1.id }) else { return nil }
        let inputs = referenced(from: item.id, type: "dimg")
        let (base, gainMap) = (inputs.first, inputs.count > 1 ? inputs[1] : nil)
        func ignored(_ reason: String) -> ToneMappedImage {
            ToneMappedImage(id: item.id, base: base, gainMap: gainMap, metadata: .failure(.init(description: reason)))
        }
        guard brands.contains("tmap") else { return ignored("the file lacks the 'tmap' brand") }
        // A `pitm` naming the tmap prefers it too.
        let preferred = primaryToneMap == item.id || entityGroups.contains { group in
            group.type == "altr" && group.entities.firstIndex(of: item.id).map { index in
                base.map { group.entities.firstIndex(of: $0).map { index < $0 } ?? false } ?? false
            } ?? false
        }
        guard preferred else { return ignored("no 'altr' group prefers it to its base image") }
        guard inputs.count == 2, base == primaryID else { return ignored("it does not derive from the primary and one gain map") }
        let body: [UInt8]
        do {
            body = try itemData(item.id, from: source, maxBytes: 4096)
        } catch {
            return ignored("its metadata cannot be read: \(error)")
        }
        return ToneMappedImage(id: item.id, base: base, gainMap: gainMap, metadata: GainMapMetadata.parse(body))
    }

    /// `source` as libheif 1.15 can open it when the `pitm` names a `tmap` item, which it
    /// refuses ("'pitm' box references a non-existing image"): the same bytes with the
    /// `pitm` naming the tmap's base image, `primaryID`. `source` itself otherwise, or when
    /// the base's ID does not fit the field.
    package func namingBaseAsPrimary(_ source: ByteSource) -> ByteSource {
        guard primaryToneMap != nil, let field = primaryField else { return source }
        let width = field.count
        guard width == 4 || primaryID <= 0xFFFF else { return source }
        let id = (0..<width).map { UInt8(truncatingIfNeeded: primaryID >> (8 * UInt32(width - 1 - $0))) }
        return PatchedByteSource(source, replacing: field.lowerBound, with: id)
    }
}
