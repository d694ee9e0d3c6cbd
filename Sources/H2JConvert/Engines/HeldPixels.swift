import H2JSupport

extension ConversionEngine {
    /// The decoded upright rows held whole, as `emit` writes them in `pixelFormat`: what
    /// is applied (an HDR base's gain map) or composed (a derived image's input) rather
    /// than encoded; nil when the rows are not the format's size.
    func heldPixels() throws -> Raster? {
        let format = try pixelFormat()
        return try Raster.gathering(width: format.width, height: format.height, components: format.components) { body in
            try withoutActuallyEscaping(body) { try emit(into: RowSink($0)) }
        }
    }
}
