import Foundation
import Testing
@testable import H2JBatch
@testable import H2JOutputPlan
@testable import heic2jpg

/// A fresh directory under /tmp for one test, removed after it.
private final class Scratch {
    let path = NSTemporaryDirectory() + "heic2jpg-naming-" + UUID().uuidString

    init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func directory(_ name: String) { try? FileManager.default.createDirectory(atPath: path + "/" + name, withIntermediateDirectories: true) }
    func file(_ name: String) { FileManager.default.createFile(atPath: path + "/" + name, contents: Data([0xFF, 0xD8])) }
}

@Suite("Command line: --name, -o FILE.jpg and IN OUT.jpg")
struct OutputNamingParserTests {
    func request(_ arguments: [String]) throws -> BatchRequest { try CommandLineParserTests().request(arguments) }
    func usageError(_ arguments: [String]) -> String? { CommandLineParserTests().usageError(arguments) }

    @Test("--name parses into the request; {stem} is the default")
    func name() throws {
        #expect(try request(["a.heic"]).naming == .template(.standard))
        #expect(try request(["--name", "{name}", "dir"]).naming == .template(try NameTemplate("{name}")))
        #expect(try request(["--name", "photo_{n}", "a.heic"]).naming == .template(try NameTemplate("photo_{n}")),
                "one file: a template that does not name the source is fine")
    }

    @Test("--name: malformed, unsafe, colliding and misplaced templates are usage errors")
    func nameErrors() {
        #expect(usageError(["--name", "{date}", "a.heic"]) == "The value '{date}' is invalid for '--name <template>': unknown placeholder '{date}' (expected {stem}, {name}, {ext} or {n})")
        #expect(usageError(["--name", "{stem", "a.heic"]) == "The value '{stem' is invalid for '--name <template>': unbalanced braces: '{' without '}'")
        #expect(usageError(["--name", "x/{stem}", "a.heic"]) == "The value 'x/{stem}' is invalid for '--name <template>': a file name cannot hold '/'")
        #expect(usageError(["--name=-{stem}", "a.heic"]) == "The value '-{stem}' is invalid for '--name <template>': a name starting with '-' reads as an option")
        #expect(usageError(["--name", "", "a.heic"]) == "The value '' is invalid for '--name <template>': it is empty")
        #expect(usageError(["--name", "photo", "a.heic", "b.heic"]) == "'--name photo' gives every source the same name; put {stem} or {name} in it")
        #expect(usageError(["--name", "{ext}_{n}", "/"]) == "'--name {ext}_{n}' gives every source the same name; put {stem} or {name} in it")
        #expect(usageError(["--name", "{ext}", "a"]) == "'--name {ext}' gives 'a' an empty name")
        #expect(usageError(["--name", "{stem}", "--files-from", "-", "--name", "x"]) == "'--name x' gives every source the same name; put {stem} or {name} in it")
        #expect(usageError(["--name", "{stem}", "-o", "-", "a.heic"]) == "'--name' names files; '-o -' writes to stdout")
        #expect(usageError(["--name", "{stem}", "-o", "out", "-"]) == "'--name' names outputs after their source file, and stdin ('-') has none")
        #expect(usageError(["--name", "{stem}", "-o", "x.jpg", "a.heic"]) == "'--name' names the outputs of many sources; the output file 'x.jpg' is named already")
    }

    @Test("-o FILE.jpg (.jpeg, any case) that is not a directory names the one output")
    func outputFile() throws {
        let dir = Scratch()
        for name in ["out.jpg", "OUT.JPEG", "a/b.Jpg"] {
            let r = try request(["a.heic", "-o", dir.path + "/" + name])
            #expect(r.naming == .file(dir.path + "/" + name) && r.output == nil && r.inputs == ["a.heic"])
        }
        #expect(try request(["-", "-o", "x.jpg"]).naming == .file("x.jpg"), "stdin to one file")
        dir.directory("album.jpg")
        let root = try request(["a.heic", "-o", dir.path + "/album.jpg"])
        #expect(root.output == .path(dir.path + "/album.jpg") && root.naming == .template(.standard), "an existing directory stays a root")
        #expect(try request(["a.heic", "-o", "new.jpg/"]).output == .path("new.jpg/"), "a trailing / asks for a directory")
    }

    @Test("-o FILE.jpg takes one input file: a directory, several inputs or a list are usage errors")
    func outputFileErrors() {
        let dir = Scratch()
        dir.directory("photos")
        #expect(usageError([dir.path + "/photos", "-o", "out.jpg"]) == "the output file 'out.jpg' takes one input file; '\(dir.path)/photos' is a directory (for an output directory named so, end it with '/')")
        #expect(usageError(["a.heic", "b.heic", "-o", "out.jpg"]) == "the output file 'out.jpg' takes exactly one input, not 2")
        #expect(usageError(["--files-from", "list", "-o", "out.jpg"]) == "the output file 'out.jpg' takes one input; '--files-from' lists many")
    }

    @Test("IN OUT.jpg: a second operand named .jpg is the output, whether or not a file is there; a directory stays an input")
    func inOut() throws {
        let dir = Scratch()
        let target = dir.path + "/out.jpeg"
        let r = try request(["a.heic", target])
        #expect(r.inputs == ["a.heic"] && r.naming == .file(target) && r.output == nil)
        #expect(try request(["-", target]).naming == .file(target))
        dir.file("taken.jpg")
        let taken = try request(["a.heic", dir.path + "/taken.jpg"])
        #expect(taken.inputs == ["a.heic"] && taken.naming == .file(dir.path + "/taken.jpg"), "an existing file is the output, never an input")
        dir.directory("d.jpg")
        #expect(try request(["a.heic", dir.path + "/d.jpg"]).inputs == ["a.heic", dir.path + "/d.jpg"], "a directory stays an input")
        #expect(try request(["a.heic", "b.heic", target]).inputs.count == 3, "only two operands")
        #expect(try request(["a.heic", "-o", "o", target]).inputs.count == 2, "not with -o")
        #expect(usageError([dir.path, target]) == "the output file '\(target)' takes one input file; '\(dir.path)' is a directory (for an output directory named so, end it with '/')")
    }

    @Test("--metadata takes the older names too")
    func modeAliases() throws {
        #expect(try request(["--metadata", "lossy", "a"]).options.metadata == .strip)
        #expect(try request(["--metadata", "lossless-metadata", "a"]).options.metadata == .keep)
    }
}
