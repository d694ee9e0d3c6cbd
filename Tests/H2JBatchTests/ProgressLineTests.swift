import H2JJob
import Testing
@testable import H2JBatch
@testable import H2JConvert
@testable import H2JSupport

@Suite("Progress line: total, percent, rate, ETA, failures, the file; never wider than the terminal")
struct ProgressLineTests {
    static let line = ProgressLine(done: 4210, total: 10000, written: 4000, failed: 3, elapsed: 325.2,
                                   current: "/archive/2019/d0042/IMG_4210.HEIC")

    @Test("A wide terminal shows everything")
    func wide() {
        #expect(Self.line.text(columns: 120)
            == "[ 42%] 4210/10000 · 12.3 images/s · ETA 7m27s · 3 failed · /archive/2019/d0042/IMG_4210.HEIC")
    }

    @Test("Narrower: the file keeps its end, then the rate and the ETA go; counts and failures stay")
    func narrow() {
        #expect(Self.line.text(columns: 70) == "[ 42%] 4210/10000 · 12.3 images/s · ETA 7m27s · 3 failed · …4210.HEIC")
        #expect(Self.line.text(columns: 50) == "[ 42%] 4210/10000 · ETA 7m27s · 3 failed")
        #expect(Self.line.text(columns: 32) == "[ 42%] 4210/10000 · 3 failed")
        #expect(Self.line.text(columns: 12) == "[ 42%] 4210")
        for columns in 1...130 {
            #expect(TerminalText.width(Self.line.text(columns: columns)) <= max(columns - 1, 1), "columns \(columns)")
        }
    }

    @Test("An estimated total is marked ~; without a total there is no percent and no ETA")
    func estimateAndUnknown() {
        var line = Self.line
        line.totalIsEstimate = true
        #expect(line.text(columns: 60).hasPrefix("[~42%] 4210/~10000 · "))
        line.total = nil
        #expect(line.eta == nil)
        #expect(line.text(columns: 200) == "4210 done · 12.3 images/s · 3 failed · /archive/2019/d0042/IMG_4210.HEIC")
        #expect(ProgressLine(done: 0, total: 5, elapsed: 0.2).eta == nil)
    }

    @Test("Durations read as seconds, minutes and seconds, or hours and minutes")
    func durations() {
        #expect(ProgressLine.duration(42.4) == "42s")
        #expect(ProgressLine.duration(471) == "7m51s")
        #expect(ProgressLine.duration(11220) == "3h07m")
    }

    @Test("Terminal widths: wide characters take two columns, combining marks none; controls and raw bytes show as ?")
    func widths() {
        #expect(TerminalText.width("写真.heic") == 9)
        #expect(TerminalText.width("cafe\u{301}") == 4)
        #expect(TerminalText.printable("a\u{1B}[2Jb\nc") == "a?[2Jb?c")
        let raw = PathBytes.string(Array("caf".utf8) + [0xE9])
        #expect(TerminalText.printable(raw) == "caf?")
        #expect(TerminalText.keepingEnd("写真写真.heic", columns: 8) == "…真.heic")
        #expect(TerminalText.keepingStart("写真写真", columns: 5) == "写真")
    }
}

@Suite("Warnings summed by kind")
struct WarningTallyTests {
    @Test("One line per kind in the order first seen, counting files once; the first file and message are named")
    func tally() {
        var tally = WarningTally()
        for n in 1...3 {
            var result = ConversionResult(source: "IMG_\(n).HEIC", output: nil, status: .converted)
            result.warnings = [Warning(.auxiliaryMetadataNotCarried, "XMP of the depth image \(n) is not carried over"),
                               Warning(.auxiliaryMetadataNotCarried, "again")]
            if n == 2 { result.warnings.append(Warning(.exifTrimmed, "trimmed 12 bytes")) }
            tally.add(result)
        }
        tally.add(ConversionResult(source: "clean.HEIC", output: nil, status: .converted))
        #expect(tally.lines == [
            "warning: 3 files: \(Warning.Code.auxiliaryMetadataNotCarried.rawValue), first IMG_1.HEIC: XMP of the depth image 1 is not carried over (-v prints each)",
            "warning: 1 file: exif-trimmed, IMG_2.HEIC: trimmed 12 bytes",
        ])
    }
}
