import H2JJob
import H2JSupport

/// `--progressive` or `--optimize` on an image whose coefficients libjpeg would hold
/// (`JPEGCoefficientMemory`: planes the tile engine streams, a JPEG item transcoded) that
/// do not fit the worker's memory limit less what the worker needs besides
/// (`ConversionOptions.workerOwnMemory`). The file fails before encoding, naming both;
/// no baseline output is written in its place, so an output always is what its options
/// (and the state's fingerprint) say.
struct CoefficientMemoryError: Error, CustomStringConvertible {
    /// Bytes the buffer needs; nil when the size is beyond what can be computed.
    let needed: Int?
    let limit: Int

    /// Passes when `needed` fits `options.maxMemory` less the worker's own; always
    /// without a limit (a conversion outside a worker).
    static func check(_ needed: Int?, options: ConversionOptions) throws(CoefficientMemoryError) {
        guard let limit = options.maxMemory else { return }
        guard let needed, needed <= limit - ConversionOptions.workerOwnMemory else {
            throw CoefficientMemoryError(needed: needed, limit: limit)
        }
    }

    var description: String {
        let need = needed.map { "\(Double(($0 * 10 + (1 << 20) - 1) >> 20) / 10) MiB" } ?? "more than can be counted"
        return "--progressive/--optimize need \(need) for libjpeg's whole-image coefficient buffer, but the worker's "
            + "memory limit (--max-memory) of \(Self.mebibytes(limit)) MiB leaves \(Self.mebibytes(max(0, limit - ConversionOptions.workerOwnMemory))) MiB "
            + "once its own \(Self.mebibytes(ConversionOptions.workerOwnMemory)) MiB are set aside: raise --max-memory, or convert without these options"
    }

    /// Whole MiB (of limits given in MiB).
    private static func mebibytes(_ bytes: Int) -> Int { bytes >> 20 }
}

extension CoefficientMemoryError: CodedError {
    var code: ErrorCode { .limitExceeded }
}
