import H2JOutputPlan

/// What one worker process may use: memory (`--max-memory`), time per file
/// (`--timeout`) and the size of any file it writes (from `--max-pixels`); and the tile
/// decoder it runs (`--decoder`), which it must load before its sandbox closes.
///
/// The memory limit is the kernel's `RLIMIT_DATA` on the worker: heap, anonymous
/// mappings and thread stacks together, so an allocation past it fails rather than
/// growing until the machine swaps. The time limit is the parent's: past it, the parent
/// kills the worker (and a worker whose parent is gone stops itself a little later,
/// with `alarm`).
package struct WorkerLimits: Sendable, Equatable {
    /// Bytes of data memory per worker.
    package var memoryBytes: Int
    /// Seconds one file may take; 0 = no limit.
    package var timeoutSeconds: Int
    /// The worker's `RLIMIT_FSIZE`: no output it writes may grow past this.
    package var outputBytes: Int
    /// The tile decoder (`TileDecoderChoice`; a run passes it resolved).
    package var decoder: TileDecoderChoice

    package static let defaultTimeoutSeconds = 120
    /// The first argument that makes the executable a worker, its parent's pid and these
    /// limits (`arguments`) after it.
    package static let workerArgument = "--internal-worker"
    /// The smallest `--max-memory`: what a worker needs before it decodes anything.
    package static let minimumMemoryBytes = ConversionOptions.workerOwnMemory

    package init(memoryBytes: Int, timeoutSeconds: Int = WorkerLimits.defaultTimeoutSeconds,
                 outputBytes: Int = WorkerLimits.maxOutputBytes(maxPixels: ConversionPlan.defaultMaxPixels),
                 decoder: TileDecoderChoice = .defaultChoice) {
        self.memoryBytes = memoryBytes
        self.timeoutSeconds = timeoutSeconds
        self.outputBytes = outputBytes
        self.decoder = decoder
    }

    /// The largest file a conversion under `maxPixels` can write: two images (an MPO's
    /// pair, an Ultra HDR primary and its gain map) at libjpeg-turbo's worst case of 6
    /// bytes a pixel (2 a sample, 4:4:4: `tj3JPEGBufSize`), plus 128 MiB for the metadata
    /// segments (ICC ≤ 16 MiB, EXIF, XMP) and the vendor trailers (≤ 64 MiB). 256 MP
    /// gives 3.2 GB.
    package static func maxOutputBytes(maxPixels: Int) -> Int {
        let (image, overflow) = maxPixels.multipliedReportingOverflow(by: 2 * 6)
        return overflow || image > Int.max - (128 << 20) ? Int.max : image + (128 << 20)
    }

    /// The default memory for an image limit of `maxPixels`: libheif's whole-image decode
    /// of the largest image allowed (planes of up to 16 bits and the 8-bit RGB copy the
    /// encoder reads, 8 bytes a pixel) plus 512 MiB for everything else. The tile engine
    /// needs far less (a 200 MP grid in under 40 MB); 256 MP gives 2.4 GiB.
    package static func defaultMemory(maxPixels: Int) -> Int {
        let (image, overflow) = maxPixels.multipliedReportingOverflow(by: 8)
        return overflow ? Int.max : image + (512 << 20)
    }

    /// What the worker is started with (`WorkerMain` parses it back).
    package var arguments: [String] { [String(memoryBytes), String(timeoutSeconds), String(outputBytes), decoder.rawValue] }

    /// Longest `--timeout`: a day.
    package static let maxTimeoutSeconds = 86_400

    /// `--timeout` (convert's and compare's): whole seconds, 0 for no limit; nil for
    /// anything else (`timeoutExpected` says what is).
    package static func parseTimeout(_ text: String) -> Int? {
        Int(text).flatMap { (0...maxTimeoutSeconds).contains($0) ? $0 : nil }
    }

    /// What a usage error of `--timeout` says is expected.
    package static let timeoutExpected = "expected seconds, a whole number from 0 (no limit) to \(maxTimeoutSeconds)"

    /// The limits a worker was started with; nil for anything `arguments` cannot have made.
    package init?(arguments: ArraySlice<String>) {
        guard arguments.count == 4, let memory = Int(arguments[arguments.startIndex]),
              let timeout = Int(arguments[arguments.startIndex + 1]), let output = Int(arguments[arguments.startIndex + 2]),
              let decoder = TileDecoderChoice(rawValue: arguments[arguments.startIndex + 3]),
              memory > 0, output > 0, (0...Self.maxTimeoutSeconds).contains(timeout) else { return nil }
        self.init(memoryBytes: memory, timeoutSeconds: timeout, outputBytes: output, decoder: decoder)
    }

    /// `--max-memory` as people write it: bytes, or a number with K, M, G or T (binary
    /// units, an optional trailing `B` or `iB`). nil for anything else or an overflow.
    package static func parseSize(_ text: String) -> Int? {
        var digits = Substring(text.uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits = digits.dropLast(suffix.count)
            break
        }
        var shift = 0
        if let unit = digits.last, let index = "KMGT".firstIndex(of: unit) {
            shift = 10 * ("KMGT".distance(from: "KMGT".startIndex, to: index) + 1)
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : bytes
    }
}
