import H2JSupport

extension ByteSource {
    /// `read(at:count:)` for the container reader, its failures as `HEIFError`s.
    package func containerBytes(at offset: Int, count: Int) throws(HEIFError) -> [UInt8] {
        do {
            return try read(at: offset, count: count)
        } catch {
            throw HEIFError(error)
        }
    }
}
