import H2JSupport

/// An HEVC item's data that is not a sequence of whole length-prefixed NAL units: its
/// image data does not decode (`decode-failed`).
package struct NALUnitError: CodedError, Equatable, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }
    package var code: ErrorCode { .decodeFailed }

    package init(_ message: String) { self.message = message }
}

extension HEVCConfiguration {
    /// The byte ranges of the NAL units in an item's `data` (length prefixes of
    /// `lengthSize` bytes excluded). Every range lies inside `data`; never traps.
    package static func nalUnits(in data: [UInt8], lengthSize: Int) throws(NALUnitError) -> [Range<Int>] {
        let reader = ByteReader(data)
        var units: [Range<Int>] = []
        var offset = 0
        while offset < data.count {
            let length: Int?
            switch lengthSize {
            case 1: length = reader.u8(offset).map(Int.init)
            case 2: length = reader.u16(offset).map(Int.init)
            case 4: length = reader.u32(offset).map(Int.init)
            default: throw NALUnitError("NAL unit length size \(lengthSize) is not 1, 2 or 4")
            }
            guard let length else {
                throw NALUnitError("the tile data ends inside a \(lengthSize)-byte NAL unit length at byte \(offset) of \(data.count)")
            }
            let start = offset + lengthSize
            guard length >= 2 else {
                throw NALUnitError("NAL unit \(units.count) at byte \(offset) has \(length) bytes, fewer than a NAL unit header")
            }
            guard length <= Int(Int32.max), reader.contains(offset: start, length: length) else {
                throw NALUnitError("NAL unit \(units.count) at byte \(offset) declares \(length) bytes, past the end of the \(data.count)-byte tile data")
            }
            if let problem = startCodeEmulation(data, start..<(start + length)) {
                throw NALUnitError("NAL unit \(units.count) at byte \(offset) \(problem), which no valid stream does (damaged data)")
            }
            units.append(start..<(start + length))
            offset = start + length
        }
        guard !units.isEmpty else { throw NALUnitError("the tile data holds no NAL unit") }
        return units
    }

    /// What H.265 7.4.2 forbids inside a NAL unit that `unit` of `data` holds: the bytes
    /// 00 00 00, 00 00 01 or 00 00 02 at any position (an encoder escapes them with 03),
    /// or a last byte of 00. A run of zeros written over slice data is caught here even
    /// when the decoder would take it for valid data that ends exactly at the picture's end.
    package static func startCodeEmulation(_ data: [UInt8], _ unit: Range<Int>) -> String? {
        data.withUnsafeBufferPointer { bytes -> String? in
            guard unit.lowerBound >= 0, unit.upperBound <= bytes.count, !unit.isEmpty else { return nil }
            if bytes[unit.upperBound - 1] == 0 { return "ends with a zero byte" }
            var zeros = 0
            for index in unit {
                let byte = bytes[index]
                if zeros >= 2, byte <= 2 {
                    return "holds 00 00 0\(byte) at byte \(index - 2 - unit.lowerBound)"
                }
                zeros = byte == 0 ? zeros + 1 : 0
            }
            return nil
        }
    }
}
