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
            units.append(start..<(start + length))
            offset = start + length
        }
        guard !units.isEmpty else { throw NALUnitError("the tile data holds no NAL unit") }
        return units
    }
}
