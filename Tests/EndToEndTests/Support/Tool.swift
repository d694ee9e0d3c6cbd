import Foundation

/// Runs the built `heic2jpg` binary (a sibling of the test bundle in the build
/// directory) and captures everything it does.
enum Tool {
    struct Outcome {
        let status: Int32
        let stdout: Data
        let stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

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

    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, executable: String = binary) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        // Drain both pipes concurrently so a chatty child never blocks.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Outcome(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }
}
