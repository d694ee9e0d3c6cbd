import Foundation
import H2JTestSupport

/// Runs the built `heic2jpg` binary (a sibling of the test bundle in the build
/// directory) and captures everything it does.
enum Tool {
    typealias Outcome = ChildProcess.Output

    /// The build products directory, found from this test process's own executable.
    static let productsDirectory: URL = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent()
    }()

    static var binary: String { productsDirectory.appendingPathComponent("heic2jpg").path }

    /// The package root (this file is Tests/EndToEndTests/Support/Tool.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var samples: String { packageRoot.appendingPathComponent("Samples").path }

    /// `../shared/corpus` beside the package root, when present.
    static var corpus: String? {
        let path = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// `../shared/corpus-wide` (files beyond the common case: groups, sequences, gain
    /// maps, `mini`) beside the package root, when present.
    static var corpusWide: String? {
        let path = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus-wide").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Runs `executable` (the built heic2jpg unless said otherwise) and captures it.
    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, executable: String = binary,
                    workingDirectory: String? = nil) throws -> Outcome {
        try ChildProcess.run(executable, arguments, stdin: stdin, workingDirectory: workingDirectory)
    }
}
