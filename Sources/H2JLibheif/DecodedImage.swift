import CHeif
import H2JSupport

/// A fully decoded, upright 8-bit image from libheif, handed to the encoder in bands.
///
/// Invariant: rows are `components` (1 = gray, 3 = RGB) bytes per pixel once
/// `forEachBand` has flattened any alpha onto the background. The libheif image owns
/// the pixel memory; it is released with this object.
package final class DecodedImage {
    package let width: Int
    package let height: Int
    /// 1 for grayscale output, 3 for RGB.
    package let components: Int
    /// libheif's decoding warnings (non-fatal defects it worked around).
    package let warnings: [Warning]

    private let image: OpaquePointer
    private let plane: UnsafePointer<UInt8>
    private let stride: Int
    /// Alpha plane when it is separate (grayscale); RGBA carries it interleaved.
    private let alphaPlane: (pointer: UnsafePointer<UInt8>, stride: Int)?
    private let interleavedAlpha: Bool
    /// 8-bit copies of HDR monochrome planes, freed on deinit.
    private let ownedPlanes: [UnsafeMutableBufferPointer<UInt8>]
    private let premultiplied: Bool
    private let background: RGBColor

    /// Decodes `handle` to 8-bit interleaved RGB(A) or monochrome(+alpha), with
    /// `irot`/`imir`/`clap` applied and HDR brought down to 8 bits (`convert_hdr_to_8bit`).
    ///
    /// `monochrome` is the container's claim (`pixi`, `hvcC`). Some writers get it wrong,
    /// so when libheif cannot produce monochrome from the coded image, the image is
    /// decoded again as RGB: the bitstream, not the box, decides. With `transformed`
    /// false, `irot`/`imir`/`clap` are left for the caller to apply.
    package convenience init(decoding handle: LibheifHandle, monochrome: Bool, background: RGBColor,
                             transformed: Bool = true) throws(LibheifError) {
        if monochrome, let decoded = try? Self.decode(handle, monochrome: true, transformed: transformed) {
            try self.init(decoded: decoded, handle: handle, monochrome: true, background: background)
        } else {
            try self.init(decoded: try Self.decode(handle, monochrome: false, transformed: transformed), handle: handle,
                          monochrome: false, background: background)
        }
    }

    /// Wraps `heif_decode_image`; the returned image must be released by the caller.
    private static func decode(_ handle: LibheifHandle, monochrome: Bool, transformed: Bool) throws(LibheifError) -> OpaquePointer {
        let colorspace = monochrome ? heif_colorspace_monochrome : heif_colorspace_RGB
        let chroma = monochrome ? heif_chroma_monochrome : (handle.hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        let options = DecodingOptions.make(hdrTo8Bit: true, transformed: transformed)
        defer { heif_decoding_options_free(options) }
        var decoded: OpaquePointer?
        if let error = LibheifError(heif_decode_image(handle.pointer, &decoded, colorspace, chroma, options)) { throw error }
        guard let decoded else { throw LibheifError(message: "decoder returned no image") }
        return decoded
    }

    /// Takes ownership of `decoded`.
    private init(decoded: OpaquePointer, handle: LibheifHandle, monochrome: Bool, background: RGBColor) throws(LibheifError) {
        let hasAlpha = handle.hasAlpha
        image = decoded
        width = Int(heif_image_get_width(decoded, monochrome ? heif_channel_Y : heif_channel_interleaved))
        height = Int(heif_image_get_height(decoded, monochrome ? heif_channel_Y : heif_channel_interleaved))
        components = monochrome ? 1 : 3
        premultiplied = handle.isPremultiplied
        self.background = background
        warnings = Self.decodingWarnings(decoded)

        let channel = monochrome ? heif_channel_Y : heif_channel_interleaved
        var owned: [UnsafeMutableBufferPointer<UInt8>] = []
        guard width > 0, height > 0,
              let main = Self.eightBitPlane(decoded, channel, width: width, height: height, owned: &owned) else {
            let bits = heif_image_get_bits_per_pixel_range(decoded, channel)
            heif_image_release(decoded)
            throw LibheifError(message: "decoder returned no usable plane (\(width)×\(height), \(bits) bits per sample)")
        }
        plane = main.pointer
        stride = main.stride
        interleavedAlpha = hasAlpha && !monochrome
        if hasAlpha && monochrome, heif_image_has_channel(decoded, heif_channel_Alpha) != 0 {
            alphaPlane = Self.eightBitPlane(decoded, heif_channel_Alpha, width: width, height: height, owned: &owned)
        } else {
            alphaPlane = nil
        }
        ownedPlanes = owned
    }

    /// An 8-bit view of `channel`. libheif's `convert_hdr_to_8bit` covers RGB output but
    /// not monochrome, so 9–16-bit planes are scaled here (v · 255 / (2^bits − 1), rounded)
    /// into a buffer appended to `owned`, which the caller frees.
    private static func eightBitPlane(_ image: OpaquePointer, _ channel: heif_channel, width: Int, height: Int,
                                      owned: inout [UnsafeMutableBufferPointer<UInt8>]) -> (pointer: UnsafePointer<UInt8>, stride: Int)? {
        let bits = Int(heif_image_get_bits_per_pixel_range(image, channel))
        var planeStride: Int32 = 0
        guard let base = heif_image_get_plane_readonly(image, channel, &planeStride) else { return nil }
        if bits == 8 { return (base, Int(planeStride)) }
        guard channel != heif_channel_interleaved, (9...16).contains(bits) else { return nil }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width * height)
        owned.append(buffer)
        let maximum = (1 << bits) - 1
        for y in 0..<height {
            let row = UnsafeRawPointer(base + y * Int(planeStride))
            for x in 0..<width {
                let value = Int(row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                buffer[y * width + x] = UInt8(min(255, (min(value, maximum) * 255 + maximum / 2) / maximum))
            }
        }
        return (UnsafePointer(buffer.baseAddress!), width)
    }

    deinit {
        heif_image_release(image)
        ownedPlanes.forEach { $0.deallocate() }
    }

    static func decodingWarnings(_ image: OpaquePointer) -> [Warning] {
        var warnings = [heif_error](repeating: heif_error(), count: 8)
        let count = Int(heif_image_get_decoding_warnings(image, 0, &warnings, Int32(warnings.count)))
        return warnings.prefix(count).map { Warning(.decodeWarning, LibheifError($0)?.message ?? "decoder warning") }
    }

    /// True when the image has an alpha plane (which `forEachBand` flattens unless told not to).
    package var hasAlpha: Bool { interleavedAlpha || alphaPlane != nil }
    /// True when the colour samples are premultiplied by alpha (`prem`).
    package var isPremultiplied: Bool { premultiplied }

    /// Calls `body` with the alpha plane's rows (8 bits, as libheif hands them out), in
    /// bands of at most `bandRows`; does nothing for an image without alpha.
    package func forEachAlphaBand<E: Error>(bandRows: Int = 16,
                                          _ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws(E) -> Void) throws(E) {
        if let alphaPlane {
            for row in Swift.stride(from: 0, to: height, by: bandRows) {
                try body(alphaPlane.pointer + row * alphaPlane.stride, alphaPlane.stride, min(bandRows, height - row))
            }
            return
        }
        guard interleavedAlpha else { return }
        var scratch = [UInt8](repeating: 0, count: width * bandRows)
        for row in Swift.stride(from: 0, to: height, by: bandRows) {
            let count = min(bandRows, height - row)
            scratch.withUnsafeMutableBufferPointer { out in
                for r in 0..<count {
                    let source = plane + (row + r) * stride
                    for x in 0..<width { out[r * width + x] = source[4 * x + 3] }
                }
            }
            try scratch.withUnsafeBufferPointer { (out) throws(E) in try body(out.baseAddress!, width, count) }
        }
    }

    /// Calls `body` with consecutive bands of at most `bandRows` rows, top to bottom,
    /// each `components` bytes per pixel; alpha is flattened onto the background first,
    /// or with `flatten` false left out (`forEachAlphaBand` reads it).
    package func forEachBand<E: Error>(bandRows: Int = 16, flatten: Bool = true,
                                     _ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws(E) -> Void) throws(E) {
        let needsFlattening = interleavedAlpha || (flatten && alphaPlane != nil)
        let outStride = width * components
        var scratch = [UInt8](repeating: 0, count: needsFlattening ? outStride * bandRows : 0)
        var row = 0
        while row < height {
            let count = min(bandRows, height - row)
            if !needsFlattening {
                try body(plane + row * stride, stride, count)
            } else {
                scratch.withUnsafeMutableBufferPointer { out in
                    for r in 0..<count {
                        self.flatten(row: row + r, into: out.baseAddress! + r * outStride, flatten: flatten)
                    }
                }
                try scratch.withUnsafeBufferPointer { (out) throws(E) in try body(out.baseAddress!, outStride, count) }
            }
            row += count
        }
    }

    /// Composites one row over the background (`RGBColor.composite`), or with `flatten`
    /// false copies its colour without its alpha.
    private func flatten(row: Int, into out: UnsafeMutablePointer<UInt8>, flatten: Bool) {
        @inline(__always) func blend(_ c: UInt8, _ a: Int, _ bg: UInt8) -> UInt8 {
            RGBColor.composite(c, alpha: a, over: bg, premultiplied: premultiplied)
        }
        if interleavedAlpha && !flatten {
            let source = plane + row * stride
            for x in 0..<width {
                for c in 0..<3 { out[3 * x + c] = source[4 * x + c] }
            }
        } else if interleavedAlpha {
            let source = plane + row * stride
            for x in 0..<width {
                let a = Int(source[4 * x + 3])
                out[3 * x] = blend(source[4 * x], a, background.red)
                out[3 * x + 1] = blend(source[4 * x + 1], a, background.green)
                out[3 * x + 2] = blend(source[4 * x + 2], a, background.blue)
            }
        } else if let alphaPlane {
            let source = plane + row * stride
            let alpha = alphaPlane.pointer + row * alphaPlane.stride
            let bg = background.luma
            for x in 0..<width {
                out[x] = blend(source[x], Int(alpha[x]), bg)
            }
        }
    }
}

extension Warning.Code {
    /// libheif decoded the image but reported a problem with it.
    package static let decodeWarning = Self("decode-warning")
}
