import Foundation

/// References for what libheif 1.15 does not decode as a file stores it: a hidden image
/// item (a gain map that is only a `tmap` input), and a mirrored image of more than 8
/// bits (libheif mirrors only 8-bit planes). Each is independent of heic2jpg's own way
/// (`standaloneImage`, `UprightPixels`).
extension Reference {
    /// libheif's decode of hidden image item `id`: the file's bytes patched in place, the
    /// item's `infe` hidden flag cleared and `pitm` naming it, then decoded as the primary
    /// (its alpha, if any, flattened onto `background`).
    package static func heifHiddenItem(_ path: String, _ id: UInt32, background: (UInt8, UInt8, UInt8) = (255, 255, 255)) -> RGBPicture? {
        guard var bytes = FileManager.default.contents(atPath: path).map([UInt8].init),
              patch(&bytes, primary: id) else { return nil }
        let patched = NSTemporaryDirectory() + "heic2jpg-hidden-\(UUID().uuidString).heif"
        defer { try? FileManager.default.removeItem(atPath: patched) }
        guard FileManager.default.createFile(atPath: patched, contents: Data(bytes)) else { return nil }
        return heif(patched, background: background)
    }

    /// libheif's decode of the primary without its transforms, for the caller to apply.
    package static func heifUntransformed(_ path: String) -> RGBPicture? {
        withPrimaryHandle(path) { decode($0, background: (255, 255, 255), transformed: false) } ?? nil
    }

    /// Sets `pitm` to `id` and clears `id`'s hidden flag; false when the boxes are not found.
    private static func patch(_ bytes: inout [UInt8], primary id: UInt32) -> Bool {
        func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        func u16(_ at: Int) -> Int { bytes[at..<(at + 2)].reduce(0) { $0 << 8 | Int($1) } }
        func boxes(_ start: Int, _ end: Int) -> [(type: String, payload: Int, end: Int)] {
            var found: [(String, Int, Int)] = [], at = start
            while at + 8 <= end, u32(at) >= 8, at + u32(at) <= end {
                found.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), at + 8, at + u32(at)))
                at += u32(at)
            }
            return found
        }
        guard let meta = boxes(0, bytes.count).first(where: { $0.type == "meta" }) else { return false }
        var pitm = false, infe = false
        for box in boxes(meta.payload + 4, meta.end) {
            if box.type == "pitm", bytes[box.payload] == 0, id <= 0xFFFF {
                (bytes[box.payload + 4], bytes[box.payload + 5]) = (UInt8(id >> 8), UInt8(id & 0xFF))
                pitm = true
            } else if box.type == "iinf" {
                for entry in boxes(box.payload + (bytes[box.payload] == 0 ? 6 : 8), box.end) where entry.type == "infe" {
                    let entryID = bytes[entry.payload] == 2 ? u16(entry.payload + 4) : u32(entry.payload + 4)
                    guard entryID == Int(id) else { continue }
                    bytes[entry.payload + 3] &= 0xFE
                    infe = true
                }
            }
        }
        return pitm && infe
    }
}

extension RGBPicture {
    /// Turned anticlockwise by `quarterTurns`, as `irot` turns an image.
    package func rotated(quarterTurns: Int) -> RGBPicture {
        var picture = self
        for _ in 0..<(((quarterTurns % 4) + 4) % 4) {
            let (w, h) = (picture.width, picture.height)
            var pixels = [UInt8](repeating: 0, count: w * h * 3)
            // One anticlockwise turn: the old last column becomes the first row.
            for y in 0..<h {
                for x in 0..<w {
                    let to = ((w - 1 - x) * h + y) * 3, from = (y * w + x) * 3
                    pixels[to..<(to + 3)] = picture.pixels[from..<(from + 3)]
                }
            }
            picture = RGBPicture(width: h, height: w, pixels: pixels)
        }
        return picture
    }

    /// Mirrored as `imir`: axis 0 exchanges top and bottom, axis 1 left and right.
    package func mirrored(axis: Int) -> RGBPicture {
        var pixels = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                let (sx, sy) = axis == 0 ? (x, height - 1 - y) : (width - 1 - x, y)
                let to = (y * width + x) * 3, from = (sy * width + sx) * 3
                pixels[to..<(to + 3)] = self.pixels[from..<(from + 3)]
            }
        }
        return RGBPicture(width: width, height: height, pixels: pixels)
    }
}
