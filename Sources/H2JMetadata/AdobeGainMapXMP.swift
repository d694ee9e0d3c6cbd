import H2JSupport

/// Adobe's gain-map parameters (`hdrgm:`, Gain Map 1.0) as an XMP packet states them:
/// what a gain map carried as an auxiliary image with its own XMP needs (Samsung's
/// `urn:com:samsung:photo:2024:aux:hdrgainmap`, Adobe's pre-ISO `urn:com:photo:aux:hdrgainmap`).
///
/// Each per-channel value is one number or an `rdf:Seq` of three, in attribute or element
/// form. Absent values take the specification's defaults (min 0, gamma 1, offsets 1/64,
/// capacity min 0, an SDR base); `GainMapMax` and `HDRCapacityMax` have none.
///
/// Invariant: parsing never traps; a packet without a usable set of values is a refusal
/// that names the value.
package struct AdobeGainMapXMP: Sendable, Equatable {
    /// Per channel: one value, or three (red, green, blue).
    package let gainMapMin, gainMapMax, gamma, offsetSDR, offsetHDR: [Double]
    /// log2 of the display headroom at which the gain map starts and ends applying.
    package let hdrCapacityMin, hdrCapacityMax: Double
    package let baseRenditionIsHDR: Bool

    /// Reads `packet`; nil when it has no `hdrgm:Version` (no gain-map parameters at all),
    /// else the values or why they cannot be used.
    package static func read(_ packet: [UInt8]) -> Result<AdobeGainMapXMP, Refusal>? {
        let scanner = XMPPropertyScanner(packet)
        func text(_ range: Range<Int>) -> String { String(decoding: packet[range], as: UTF8.self).trimmingWhitespace }
        guard let version = scanner.properties(named: "hdrgm:Version").first.map({ text($0.value) }) else { return nil }
        guard version == "1.0" else { return .failure(Refusal("hdrgm:Version \(version) is not 1.0")) }
        /// A property's values: its text, or the items of the `rdf:Seq` it holds.
        func values(_ name: String) -> [String]? {
            guard let property = scanner.properties(named: "hdrgm:" + name).first else { return nil }
            if property.isAttribute { return [text(property.value)] }
            let content = Array(packet[property.value])
            let items = XMPPropertyScanner(content).properties(named: "rdf:li")
            guard !items.isEmpty else { return [text(property.value)] }
            return items.map { String(decoding: content[$0.value], as: UTF8.self).trimmingWhitespace }
        }
        var refusal: String?
        func numbers(_ name: String, default fallback: Double?) -> [Double] {
            guard let found = values(name) else {
                if fallback == nil { refusal = refusal ?? "hdrgm:\(name) is missing" }
                return [fallback ?? 0]
            }
            let parsed = found.compactMap(Double.init)
            guard parsed.count == found.count, parsed.count == 1 || parsed.count == 3, parsed.allSatisfy(\.isFinite) else {
                refusal = refusal ?? "hdrgm:\(name) is not one number or three"
                return [0]
            }
            return parsed
        }
        let metadata = AdobeGainMapXMP(
            gainMapMin: numbers("GainMapMin", default: 0), gainMapMax: numbers("GainMapMax", default: nil),
            gamma: numbers("Gamma", default: 1), offsetSDR: numbers("OffsetSDR", default: 1.0 / 64),
            offsetHDR: numbers("OffsetHDR", default: 1.0 / 64),
            hdrCapacityMin: numbers("HDRCapacityMin", default: 0)[0], hdrCapacityMax: numbers("HDRCapacityMax", default: nil)[0],
            baseRenditionIsHDR: values("BaseRenditionIsHDR")?.first?.lowercased() == "true")
        if let refusal { return .failure(Refusal(refusal)) }
        if let invalid = metadata.invalidValue { return .failure(Refusal(invalid)) }
        return .success(metadata)
    }

    /// The first value Adobe's specification rules out: a gamma that is not positive, a
    /// min above its max, a capacity max not above its min (which would weigh nothing).
    private var invalidValue: String? {
        if let gamma = gamma.first(where: { $0 <= 0 }) { return "hdrgm:Gamma \(gamma) is not positive" }
        let channels = max(gainMapMin.count, gainMapMax.count)
        for c in 0..<channels where value(gainMapMin, c) > value(gainMapMax, c) {
            return "hdrgm:GainMapMin \(value(gainMapMin, c)) is above hdrgm:GainMapMax \(value(gainMapMax, c))"
        }
        if hdrCapacityMax <= hdrCapacityMin { return "hdrgm:HDRCapacityMax \(hdrCapacityMax) is not above hdrgm:HDRCapacityMin \(hdrCapacityMin)" }
        if hdrCapacityMin < 0 { return "hdrgm:HDRCapacityMin \(hdrCapacityMin) is negative" }
        return nil
    }

    /// Channel `c` of a per-channel value (its only one when it has one).
    package func value(_ values: [Double], _ c: Int) -> Double { values.count == 3 ? values[c] : values[0] }

    /// Three channels when any value has three.
    package var channelCount: Int {
        [gainMapMin, gainMapMax, gamma, offsetSDR, offsetHDR].contains { $0.count == 3 } ? 3 : 1
    }

    /// Why the values cannot be used.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
