/// RGB rows whose three channels are equal at every pixel carry one channel's worth: a
/// gain map coded in colour but gray (Samsung's decodes as R = G = B) is written as a
/// gray JPEG; one whose channels differ anywhere (libavif's per-channel gain maps) in
/// colour.
enum EqualChannels {
    /// Whether every pixel of `count` rows of `width` RGB pixels, `stride` bytes apart,
    /// has R = G = B.
    static func hold(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int, width: Int) -> Bool {
        for row in 0..<count {
            let start = rows + row * stride
            for x in 0..<width where start[3 * x] != start[3 * x + 1] || start[3 * x] != start[3 * x + 2] { return false }
        }
        return true
    }

    /// The first channel of those rows: `count` rows of `width` bytes.
    static func first(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int, width: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * count) { out, initialized in
            for row in 0..<count {
                for x in 0..<width { out[row * width + x] = rows[row * stride + 3 * x] }
            }
            initialized = width * count
        }
    }
}
