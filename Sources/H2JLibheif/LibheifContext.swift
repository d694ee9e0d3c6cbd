import CHeif
import H2JSupport

/// Why libheif refused an input. `message` is libheif's own text, which names the box
/// or limit at fault ("Security limit exceeded", "No 'meta' box", …).
package struct LibheifError: Error, Equatable, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }

    /// The one place a `heif_error` becomes a Swift error; nil when it reports success.
    init?(_ error: heif_error) {
        guard error.code != heif_error_Ok else { return nil }
        let text = error.message.map { String(cString: $0) } ?? ""
        var trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        // `StrictHEVCPlugin`'s own text says what failed; libheif's wrapping adds nothing.
        let pluginPrefix = "Decoder plugin generated an error: Unspecified: "
        if error.code == heif_error_Decoder_plugin_error, trimmed.hasPrefix(pluginPrefix) { trimmed.removeFirst(pluginPrefix.count) }
        message = trimmed.isEmpty ? "libheif error \(error.code.rawValue)" : trimmed
    }
}

/// An open libheif context (`heif_context_alloc`/`heif_context_free`) with the
/// security limits set before any file is read.
package final class LibheifContext {
    let pointer: OpaquePointer
    /// The reader libheif reads through, kept alive as long as the context.
    private var reader: LibheifReader?

    /// `maxDimension` bounds width and height (libheif's own check on `ispe`).
    /// HEVC decodes go through `StrictHEVCPlugin` (registered before the first context).
    package init(maxDimension: Int, decodingThreads: Int) {
        _ = StrictHEVCPlugin.registered
        pointer = heif_context_alloc()
        heif_context_set_maximum_image_size_limit(pointer, Int32(clamping: maxDimension))
        heif_context_set_max_decoding_threads(pointer, Int32(clamping: max(1, decodingThreads)))
    }

    deinit { heif_context_free(pointer) }

    /// Wraps `heif_context_read_from_reader`: libheif reads `source` (the descriptor
    /// the converter already opened, or stdin's bytes) through `LibheifReader`, so the
    /// file is never opened twice. The source is retained here for the context's life.
    package func read(_ source: ByteSource) throws(LibheifError) {
        let reader = LibheifReader(source)
        self.reader = reader
        let error = heif_context_read_from_reader(pointer, LibheifReader.functions, Unmanaged.passUnretained(reader).toOpaque(), nil)
        if let error = LibheifError(error) { throw error }
    }

    /// Wraps `heif_context_get_primary_image_handle`.
    package func primaryHandle() throws(LibheifError) -> LibheifHandle {
        var handle: OpaquePointer?
        if let error = LibheifError(heif_context_get_primary_image_handle(pointer, &handle)) { throw error }
        guard let handle else { throw LibheifError(message: "no primary image") }
        return LibheifHandle(handle)
    }

    /// Wraps `heif_context_get_image_handle`: a top-level image (not hidden, not a
    /// thumbnail or an auxiliary image) by item ID.
    package func imageHandle(_ id: UInt32) throws(LibheifError) -> LibheifHandle {
        var handle: OpaquePointer?
        if let error = LibheifError(heif_context_get_image_handle(pointer, id, &handle)) { throw error }
        guard let handle else { throw LibheifError(message: "no image item \(id)") }
        return LibheifHandle(handle)
    }
}

extension LibheifError {
    package init(message: String) { self.message = message }
}

extension LibheifError: CodedError {
    package var code: ErrorCode { .decodeFailed }
}
