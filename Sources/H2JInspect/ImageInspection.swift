#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JOutputPlan
import H2JSupport

/// Why a file could not be described.
package struct InspectError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// The entry point of `inspect` for one file: the format is sniffed from the content
/// (`ImageFormat`), never taken from the name, and the matching describer runs.
package enum ImageInspection {
    /// Describes the HEIF/AVIF or JPEG in `source`; anything else is an error naming what
    /// it looks like. A HEIF file's outputs are planned with `outputs`.
    package static func describe(_ source: ByteSource, outputs: OutputChoices = OutputChoices()) throws(InspectError) -> ImageProperties {
        let prefix: [UInt8]
        do {
            prefix = try source.read(at: 0, count: min(ImageFormat.sniffLength, source.size))
        } catch {
            throw InspectError("cannot read: \(error)")
        }
        switch ImageFormat.sniff(prefix) {
        case .heif:
            do {
                guard let translated = try MinimizedImage.translating(source) else { return try HEIFDescriber.describe(source, outputs: outputs) }
                // A `mini` file, described as the HEIF it stands for, with its own size and brands.
                var properties = try HEIFDescriber.describe(translated, outputs: outputs)
                properties.byteSize = source.size
                properties.brands = ImageFormat.brands(prefix).map { .init(major: $0.first ?? "", compatible: Array($0.dropFirst())) }
                properties.layout = "mini"
                return properties
            } catch {
                throw InspectError(error.description)
            }
        case .jpeg:
            return try JPEGDescriber.describe(source)
        case let other:
            throw InspectError("not a HEIF or JPEG image: looks like \(other)")
        }
    }

    /// Opens `path` (a regular file only: `SourceFile` says what else it is) and describes it.
    static func describe(path: String, outputs: OutputChoices) throws(InspectError) -> ImageProperties {
        let file: SourceFile
        do {
            file = try SourceFile(path: path)
        } catch {
            throw InspectError(error.reason)
        }
        // The byte source reads through the file's descriptor, which closes on deinit.
        defer { withExtendedLifetime(file) {} }
        return try describe(file.byteSource, outputs: outputs)
    }
}
