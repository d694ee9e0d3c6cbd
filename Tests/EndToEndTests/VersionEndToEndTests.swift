import Foundation
import H2JAVCodec
import H2JSupport
import H2JTestSupport
import Testing

/// The built binary's `--version` forms, and whether the library versions it prints are
/// those of the libraries the system has installed.
@Suite("End to end: --version")
struct VersionEndToEndTests {
    static let names = ["libheif", "libde265", "libavcodec", "libjpeg-turbo", "LittleCMS", "SQLite", "libcrypto", "zlib", "Brotli", "libseccomp"]

    @Test("--version and 'version': exactly one line, on stdout, exit 0")
    func oneLine() throws {
        for arguments in [["--version"], ["version"]] {
            let outcome = try Tool.run(arguments)
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(arguments)")
            #expect(outcome.stdoutText == "heic2jpg \(Version.current)\n", "\(arguments)")
        }
    }

    /// The `NAME VERSION` lines after the first of `--version --verbose`, before its last,
    /// which says what `--decoder auto` takes and why.
    static func verboseLibraries() throws -> [(String, String)] {
        let outcome = try Tool.run(["--version", "--verbose"])
        #expect(outcome.status == 0 && outcome.stderr.isEmpty)
        let lines = outcome.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "heic2jpg \(Version.current)" && lines.last == "")
        #expect(lines.dropLast().last?.hasPrefix("decoder: auto takes libde265: ") == true)
        return lines.dropFirst().dropLast(2).map { line in
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            return (parts.first ?? "", parts.count == 2 ? parts[1] : "")
        }
    }

    @Test("--version --verbose, -v --version and 'version --verbose': the same lines, a non-empty version per library")
    func verbose() throws {
        let libraries = try Self.verboseLibraries()
        #expect(libraries.map(\.0) == Self.names)
        // libavcodec is loaded only where it is installed (`Scripts/setup --test` installs it).
        for (name, version) in libraries where !(name == "libavcodec" && !AVCodecLibrary.isAvailable) {
            #expect(!version.isEmpty && version != "unknown" && version.first?.isNumber == true, "\(name) \(version)")
        }
        let reference = try Tool.run(["--version", "--verbose"]).stdoutText
        for arguments in [["-v", "--version"], ["version", "--verbose"], ["version", "-v"]] {
            #expect(try Tool.run(arguments).stdoutText == reference, "\(arguments)")
        }
    }

    @Test("--json: one valid JSON object with the version and the same libraries as --verbose")
    func json() throws {
        let libraries = try Self.verboseLibraries()
        for arguments in [["--version", "--json"], ["version", "--json"], ["version", "--json", "--verbose"]] {
            let outcome = try Tool.run(arguments)
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(arguments)")
            let object = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [String: Any], "\(arguments)")
            #expect(object["name"] as? String == "heic2jpg" && object["version"] as? String == Version.current)
            let listed = try #require(object["libraries"] as? [String: String])
            #expect(listed == Dictionary(uniqueKeysWithValues: libraries), "\(arguments)")
        }
    }

    /// The Debian package of each library, as NOTICE lists them.
    static let packages = ["libheif": "libheif1", "libde265": "libde265-0", "libavcodec": "libavcodec59", "libjpeg-turbo": "libjpeg62-turbo",
                           "LittleCMS": "liblcms2-2", "SQLite": "libsqlite3-0", "libcrypto": "libssl3", "zlib": "zlib1g",
                           "Brotli": "libbrotli1", "libseccomp": "libseccomp2"]

    static let hasDpkg = FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query")

    @Test("Each version is the upstream version of the Debian package installed (the library as loaded, not its headers)",
          .enabled(if: hasDpkg, "not a Debian system: no dpkg-query"))
    func debianPackages() throws {
        for (name, version) in try Self.verboseLibraries() where !(name == "libavcodec" && !AVCodecLibrary.isAvailable) {
            let package = try #require(Self.packages[name], "\(name) has no package")
            let query = try ChildProcess.run("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", package])
            #expect(query.status == 0, "\(package): \(query.stderr)")
            // 1:2.1.5-2 → 2.1.5-2; 1:1.2.13.dfsg-1 → 1.2.13.dfsg-1: the version ends where a digit cannot follow.
            let upstream = query.stdoutText.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
            let rest = upstream.dropFirst(version.count)
            #expect(upstream.hasPrefix(version) && rest.first?.isNumber != true, "\(name) \(version) against \(package) \(upstream)")
        }
    }
}
