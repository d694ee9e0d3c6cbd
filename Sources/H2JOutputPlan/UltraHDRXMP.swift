import H2JContainer
import H2JMetadata

/// The XMP of an Ultra HDR JPEG (Android's Ultra HDR v1.1, Adobe's gain map 1.0): what
/// the primary says to find its gain map, and what the gain map says of itself. Readers
/// of Adobe's gain map (Chrome, Android 14) read this; Apple's and Android 15 read the
/// ISO 21496-1 APP2 segments written beside it.
package enum UltraHDRXMP {
    /// The primary's: `hdrgm:Version`, and a `Container:Directory` naming the primary and
    /// the gain map JPEG that follows it, `gainMapLength` bytes long.
    package static func primaryProperties(gainMapLength: Int) -> [XMPProperty] {
        let item = XMPProperty.Name(.container, "Item")
        let mime = XMPProperty(.containerItem, "Mime", .text("image/jpeg"))
        return [
            XMPProperty(.hdrgm, "Version", .text("1.0")),
            XMPProperty(.container, "Directory", .resourceSequence(item: item, [
                [XMPProperty(.containerItem, "Semantic", .text("Primary")), mime],
                [XMPProperty(.containerItem, "Semantic", .text("GainMap")), mime,
                 XMPProperty(.containerItem, "Length", .text(String(gainMapLength)))],
            ])),
        ]
    }

    /// The gain map's: the metadata in Adobe's terms (stops as log2 values; one value,
    /// or a sequence of three for a multichannel map). Offsets are written even when 0,
    /// since readers take 1/64 when they are absent.
    package static func gainMapProperties(_ metadata: GainMapMetadata) -> [XMPProperty] {
        func value(_ pick: (GainMapMetadata.Channel) -> GainMapMetadata.Fraction) -> XMPProperty.Value {
            let values = metadata.channels.map { text(pick($0).value ?? 0) }
            return Set(values).count == 1 ? .text(values[0]) : .orderedArray(values)
        }
        return [
            XMPProperty(.hdrgm, "Version", .text("1.0")),
            XMPProperty(.hdrgm, "GainMapMin", value(\.min)),
            XMPProperty(.hdrgm, "GainMapMax", value(\.max)),
            XMPProperty(.hdrgm, "Gamma", value(\.gamma)),
            XMPProperty(.hdrgm, "OffsetSDR", value(\.baseOffset)),
            XMPProperty(.hdrgm, "OffsetHDR", value(\.alternateOffset)),
            XMPProperty(.hdrgm, "HDRCapacityMin", .text(text(metadata.baseHDRHeadroom.value ?? 0))),
            XMPProperty(.hdrgm, "HDRCapacityMax", .text(text(metadata.alternateHDRHeadroom.value ?? 0))),
            XMPProperty(.hdrgm, "BaseRenditionIsHDR", .text(metadata.baseIsHDR ? "True" : "False")),
        ]
    }

    /// A short decimal: up to six places, no trailing zeros.
    package static func text(_ value: Double) -> String {
        var text = String(Double((value * 1_000_000).rounded()) / 1_000_000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
