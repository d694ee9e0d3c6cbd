import Foundation
import H2JSupport

/// Runs exiftool, an independent EXIF/XMP/ICC reader, for unit and end-to-end tests:
/// on bytes written to a temporary file, or on a file already on disk.
/// Tests that use it are enabled only where it is installed.
package enum ExifTool {
    package static let path = "/usr/bin/exiftool"
    package static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    package typealias Output = ChildProcess.Output

    /// A run that had to succeed and did not.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs exiftool with `arguments` (the files to read among them), whatever its exit
    /// status: on an idle `ExifToolServer` of this process (one is started when none is
    /// idle, so parallel tests never wait for each other), or as a process of its own when
    /// an argument cannot travel through an argument file.
    package static func run(_ arguments: [String]) throws -> Output {
        guard arguments.allSatisfy(ExifToolServer.canPass) else { return try ChildProcess.run(path, arguments) }
        let server = try serversLock.withLock { idleServers.popLast() } ?? ExifToolServer(executable: path)
        // A server that failed is dropped: its exiftool exits once its input closes.
        let output = try server.run(arguments)
        serversLock.withLock { idleServers.append(server) }
        return output
    }

    private static let serversLock = Lock()
    nonisolated(unsafe) private static var idleServers: [ExifToolServer] = []

    /// The standard output of a run that must succeed; throws with its standard error otherwise.
    package static func output(_ arguments: [String]) throws -> [UInt8] {
        let output = try run(arguments)
        guard output.status == 0 else {
            throw Failure(description: "exiftool \(arguments.joined(separator: " ")) failed: \(output.stderr)")
        }
        return [UInt8](output.stdout)
    }

    /// exiftool's output for `bytes` saved as `name` (the extension tells it the format):
    /// standard output, then standard error.
    package static func run(_ arguments: [String], on bytes: [UInt8], name: String = "probe.jpg") throws -> String {
        let directory = TemporaryDirectory()
        let file = directory.file(name, bytes)
        let output = try run(arguments + [file])
        return output.stdoutText + output.stderr
    }

    /// Tags as "Group1:Name" → value (`-j -G1 -a -n`).
    package static func tags(of bytes: [UInt8], name: String = "probe.jpg") throws -> [String: String] {
        let json = try run(["-j", "-G1", "-a", "-n"], on: bytes, name: name)
        let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return (objects?.first ?? [:]).mapValues { "\($0)" }
    }

    /// The warnings of `-validate -warning -a`, one per line, without the "Warning :" label:
    /// from an exiftool process of its own, since a list of values read through a
    /// long-running server came back short now and then under a loaded suite (as the
    /// gain map's hdrgm lists did; `UltraHDRCorpusEndToEndTests`).
    package static func validationWarnings(of bytes: [UInt8], name: String = "probe.jpg") throws -> [String] {
        let directory = TemporaryDirectory()
        let output = try ChildProcess.run(path, ["-validate", "-warning", "-a", "-s", "-s", directory.file(name, bytes)])
        return (output.stdoutText + output.stderr)
            .split(separator: "\n").filter { $0.hasPrefix("Warning:") }
            .map { String($0.dropFirst("Warning:".count)).trimmingCharacters(in: .whitespaces) }
    }

    /// exiftool's view of the file at `path`: `-j -n -G1 -a` (plus `extra`), keys like
    /// "IFD0:Orientation", values as its JSON has them (numbers as numbers).
    package static func tags(atPath path: String, _ extra: [String] = []) throws -> [String: Any] {
        let output = try run(["-j", "-n", "-G1", "-a"] + extra + [path])
        let json = try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]]
        return json?.first ?? [:]
    }

    /// Values of exiftool tags by name, whatever their group (first match).
    package static func tag(_ tags: [String: Any], _ name: String) -> String? {
        tags.first { $0.key.split(separator: ":").last.map(String.init) == name }.map { "\($0.value)" }
    }
}
