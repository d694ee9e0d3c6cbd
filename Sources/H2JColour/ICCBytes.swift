import CLCMS2

/// A LittleCMS profile saved as ICC bytes that are the same at every run: LittleCMS
/// writes the current time into the header, which is fixed here.
enum ICCBytes {
    /// `profile`'s bytes, or nil when LittleCMS cannot save it.
    static func saved(_ profile: cmsHPROFILE) -> [UInt8]? {
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &size) }) != 0,
              bytes.count >= 128 else { return nil }
        // Header bytes 24–35: creation date and time, six big-endian UInt16s. The profile
        // ID (bytes 84–99) is left zero, so no checksum covers them.
        for (index, value) in [2026, 1, 1, 0, 0, 0].enumerated() {
            bytes[24 + 2 * index] = UInt8(value >> 8)
            bytes[25 + 2 * index] = UInt8(value & 0xFF)
        }
        return bytes
    }
}
