import Testing
@testable import H2JBatch

@Suite("--exclude patterns")
struct ExcludePatternsTests {
    @Test("Without '/', a name at any depth; with '/', the path from the input; '*' never crosses '/'")
    func matching() {
        let patterns = ExcludePatterns(["@eaDir", "*.part", "2019/raw", "*/cache"])
        #expect(patterns.match(name: "@eaDir", relativePath: "a/b/@eaDir") == "@eaDir")
        #expect(patterns.match(name: "x.part", relativePath: "x.part") == "*.part")
        #expect(patterns.match(name: "raw", relativePath: "2019/raw") == "2019/raw")
        #expect(patterns.match(name: "raw", relativePath: "a/2019/raw") == nil, "anchored at the input")
        #expect(patterns.match(name: "cache", relativePath: "a/cache") == "*/cache")
        #expect(patterns.match(name: "cache", relativePath: "a/b/cache") == nil, "'*' does not cross '/'")
        #expect(patterns.match(name: "photo.heic", relativePath: "a/photo.heic") == nil)
    }

    @Test("A path that comes by itself is left out when any directory above it matches")
    func components() {
        let patterns = ExcludePatterns(["@eaDir", "2019/raw"])
        #expect(patterns.match(relativePath: "a/@eaDir/SYNOFILE_THUMB_M.jpg") == "@eaDir")
        #expect(patterns.match(relativePath: "2019/raw/x/p.heic") == "2019/raw")
        #expect(patterns.match(relativePath: "2019/p.heic") == nil)
        #expect(ExcludePatterns().match(relativePath: "a/b") == nil)
    }
}
