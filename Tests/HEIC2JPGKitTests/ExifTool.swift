import Foundation

/// Runs exiftool (an independent EXIF reader) on bytes written to a temporary file.
/// Tests that use it are enabled only where it is installed.
enum ExifTool {
    static let path = "/usr/bin/exiftool"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// exiftool's output for `bytes` saved as `name` (the extension tells it the format).
    static func run(_ arguments: [String], on bytes: [UInt8], name: String = "probe.jpg") throws -> String {
        let directory = TemporaryDirectory()
        let file = directory.file(name, bytes)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments + [file]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    /// Tags as "Group1:Name" → value (`-j -G1 -a -n`).
    static func tags(of bytes: [UInt8], name: String = "probe.jpg") throws -> [String: String] {
        let json = try run(["-j", "-G1", "-a", "-n"], on: bytes, name: name)
        let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return (objects?.first ?? [:]).mapValues { "\($0)" }
    }

    /// The warnings of `-validate -warning -a`, one per line, without the "Warning :" label.
    static func validationWarnings(of bytes: [UInt8], name: String = "probe.jpg") throws -> [String] {
        try run(["-validate", "-warning", "-a", "-s", "-s"], on: bytes, name: name)
            .split(separator: "\n").filter { $0.hasPrefix("Warning:") }
            .map { String($0.dropFirst("Warning:".count)).trimmingCharacters(in: .whitespaces) }
    }
}
