import Foundation
import H2JBatch
import H2JConvert
import H2JJob
import H2JSupport
import H2JWorker
import Testing
@testable import heic2jpg

/// `--version` and `version`: the forms the parser accepts, and the text each prints.
@Suite("Version: parsing and text")
struct VersionCommandTests {
    func usageError(_ arguments: [String]) -> String? { CommandLineParserTests().usageError(arguments) }

    @Test("--version and 'version', with --verbose (-v) and --json in any order")
    func forms() throws {
        let plain = VersionRequest(), verbose = VersionRequest(verbose: true), json = VersionRequest(json: true)
        let cases: [([String], VersionRequest)] = [
            (["--version"], plain), (["version"], plain), (["--version", "--version"], plain),
            (["--version", "--verbose"], verbose), (["--verbose", "--version"], verbose), (["-v", "--version"], verbose),
            (["version", "--verbose"], verbose), (["version", "-v"], verbose),
            (["--version", "--json"], json), (["--json", "--version"], json), (["version", "--json"], json),
            (["version", "--json", "-v"], VersionRequest(verbose: true, json: true)),
        ]
        for (arguments, expected) in cases {
            #expect(try CommandLineParser.parse(arguments) == .version(expected), "\(arguments)")
        }
    }

    @Test("Help wins over the version; a file named --version or version is converted after '--' or as ./version")
    func helpAndFiles() throws {
        #expect(try CommandLineParser.parse(["--version", "--help"]) == .help(.convert))
        #expect(try CommandLineParser.parse(["version", "-h"]) == .help(.version))
        guard case .convert(let dashed) = try CommandLineParser.parse(["--", "--version"]),
              case .convert(let dotted) = try CommandLineParser.parse(["./version"]) else {
            Issue.record("expected convert")
            return
        }
        #expect(dashed.inputs == ["--version"] && dotted.inputs == ["./version"])
    }

    @Test("Anything else beside the version is a usage error, never ignored")
    func extraArguments() {
        #expect(usageError(["--version", "x.heic"])
                == "The version takes no '<input>', not 'x.heic' (usage: heic2jpg version [--verbose] [--json])")
        #expect(usageError(["version", "x.heic"])
                == "The version takes no '<input>', not 'x.heic' (usage: heic2jpg version [--verbose] [--json])")
        #expect(usageError(["version", "--jsn"]) == "Unknown option '--jsn'. Did you mean '--json'?")
        #expect(usageError(["-o", "out", "--version"]) == "Unknown option '-o'.")
        #expect(usageError(["--version", "--json=yes"]) == "The option '--json' does not take a value")
    }

    static let libraries = [LibraryVersion("libheif", "1.15.1"), LibraryVersion("zlib", "1.2.13")]

    @Test("One line without --verbose; one more per library with it")
    func text() {
        #expect(VersionCommand.text(VersionRequest(), libraries: []) == "heic2jpg \(Version.current)\n")
        #expect(VersionCommand.text(VersionRequest(), libraries: Self.libraries) == "heic2jpg \(Version.current)\n")
        #expect(VersionCommand.text(VersionRequest(verbose: true), libraries: Self.libraries)
                == "heic2jpg \(Version.current)\nlibheif 1.15.1\nzlib 1.2.13\ndecoder: \(TileDecoderChoice.autoReason)\n")
    }

    @Test("--json: one object with the name, the version and the libraries in order, with or without --verbose")
    func json() throws {
        let text = VersionCommand.text(VersionRequest(json: true), libraries: Self.libraries)
        #expect(text == VersionCommand.text(VersionRequest(verbose: true, json: true), libraries: Self.libraries))
        #expect(text == """
        {
          "name": "heic2jpg",
          "version": "\(Version.current)",
          "libraries": {
            "libheif": "1.15.1",
            "zlib": "1.2.13"
          },
          "decoder": "\(TileDecoderChoice.autoReason)"
        }

        """)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? String == Version.current)
    }

    @Test("Every C library loaded reports a version of dotted numbers")
    func loadedLibraries() {
        let names = LoadedLibraries.all.map(\.name)
        #expect(names == ["libheif", "libde265", "libavcodec", "libjpeg-turbo", "LittleCMS", "SQLite", "libcrypto", "zlib", "Brotli", "libseccomp"])
        // libavcodec is loaded only where it is installed; otherwise its line says why not.
        for library in LoadedLibraries.all where !(library.name == "libavcodec" && library.version.hasPrefix("not loaded: ")) {
            let parts = library.version.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count >= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(library)")
        }
    }
}
