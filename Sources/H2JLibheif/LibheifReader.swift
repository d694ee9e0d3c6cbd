import CHeif
import H2JSupport

/// libheif's `heif_reader` over a `ByteSource`: a position and the source, reached from
/// libheif's C callbacks through the `userdata` pointer.
///
/// libheif keeps a pointer to the function table for the context's life, so the table
/// is allocated once for the process and never freed. Reads past the end fail (libheif
/// checks sizes first and turns a failed read into its own error).
///
/// libheif parses boxes a field at a time (reads of 1–4 bytes), so small reads are
/// served from a window of `windowBytes` read ahead in one `pread`; larger ones go
/// straight to the source.
final class LibheifReader {
    private let source: ByteSource
    private var position: Int64 = 0
    /// The bytes read ahead, starting at `windowStart`.
    private var window: [UInt8] = []
    private var windowStart = 0
    static let windowBytes = 64 << 10

    init(_ source: ByteSource) { self.source = source }

    nonisolated(unsafe) static let functions: UnsafePointer<heif_reader> = {
        let table = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)
        table.initialize(to: heif_reader(
            reader_api_version: 1,
            get_position: { userdata in LibheifReader.from(userdata).position },
            read: { data, size, userdata in
                guard size > 0 else { return 0 }  // libheif reads empty payloads, with no buffer
                let reader = LibheifReader.from(userdata)
                guard let data, let offset = Int(exactly: reader.position), reader.copy(size, at: offset, into: data) else { return 1 }
                reader.position += Int64(size)
                return 0
            },
            seek: { position, userdata in
                let reader = LibheifReader.from(userdata)
                guard position >= 0, position <= Int64(reader.source.size) else { return 1 }
                reader.position = position
                return 0
            },
            wait_for_file_size: { target, userdata in
                target <= Int64(LibheifReader.from(userdata).source.size) ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof
            }))
        return UnsafePointer(table)
    }()

    /// Copies `count` bytes at `offset` into `data`: from the window when they lie in
    /// it (refilled first for a small read that does not), otherwise read directly.
    private func copy(_ count: Int, at offset: Int, into data: UnsafeMutableRawPointer) -> Bool {
        if count <= Self.windowBytes && !(offset >= windowStart && offset + count <= windowStart + window.count) {
            guard offset >= 0, offset < source.size,
                  let ahead = try? source.read(at: offset, count: min(Self.windowBytes, source.size - offset)) else { return false }
            (window, windowStart) = (ahead, offset)
        }
        if offset >= windowStart && offset + count <= windowStart + window.count {
            window.withUnsafeBytes { data.copyMemory(from: $0.baseAddress! + (offset - windowStart), byteCount: count) }
            return true
        }
        guard let bytes = try? source.read(at: offset, count: count) else { return false }
        bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: count) }
        return true
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> LibheifReader {
        Unmanaged<LibheifReader>.fromOpaque(userdata!).takeUnretainedValue()
    }
}
