import H2JJob
import Testing
@testable import H2JBatch
@testable import H2JConvert
import H2JOutputPlan
@testable import H2JSupport

/// `ConversionOptions` is declared once; these tests take its fields from that
/// declaration (`Mirror`), so a field added there fails here until it is carried to the
/// worker and stated in the state's fingerprint, or is named below with why it is not.
@Suite("Conversion options: every field crosses the wire and is in the fingerprint, or says why not")
struct ConversionOptionsCoverageTests {
    /// One change away from the default for each field, by its name in the declaration.
    static let changes: [String: @Sendable (inout ConversionOptions) -> Void] = [
        "quality": { $0.quality = 77 },
        "metadata": { $0.metadata = .strip },
        "stripGPS": { $0.stripGPS = true },
        "mark": { $0.mark = false },
        "background": { $0.background = RGBColor(red: 1, green: 2, blue: 3) },
        "overwrite": { $0.overwrite = true },
        "onConflict": { $0.onConflict = .suffix },
        "dryRun": { $0.dryRun = true },
        "maxPixels": { $0.maxPixels = 12_345_678 },
        "images": { $0.images = .primary },
        "stereo": { $0.stereo = .split },
        "hdr": { $0.hdr = .sdr },
        "auxiliaries": { $0.auxiliaries = [.depth, .gainmap] },
        "auxiliariesChosen": { $0.auxiliariesChosen = true },
        "decodingThreads": { $0.decodingThreads = 3 },
        "maxSize": { $0.maxSize = OutputBox(width: 1024, height: 768) },
        "thumbnail": { $0.thumbnail = true },
        "colorspace": { $0.colorspace = .srgb },
        "progressive": { $0.progressive = true },
        "optimize": { $0.optimize = true },
        "sampling": { $0.sampling = .s444 },
        "maxMemory": { $0.maxMemory = 1 << 30 },
    ]
    /// Fields a worker is never sent: the parent plans and publishes with them.
    static let parentOnly: [String: String] = [
        "overwrite": "the parent's planner and publisher decide what is replaced",
        "onConflict": "the parent's publisher moves an output to a free name",
        "dryRun": "a dry run starts no conversion",
        "maxMemory": "the worker sets it from its own limits",
    ]
    /// Fields that never change what an output holds, so a change converts nothing again.
    static let notInFingerprint: [String: String] = [
        "overwrite": "replaces our own outputs; what they hold is the same",
        "onConflict": "where an output goes when a foreign file is there, not what it holds",
        "dryRun": "writes nothing",
        "decodingThreads": "the same pixels with any number of lanes",
        "auxiliariesChosen": "whether unwritten auxiliary images are named as asked or as not carried",
        "maxMemory": "decides whether a file fails, never what an output holds",
    ]

    static var fields: [String] { Mirror(reflecting: ConversionOptions()).children.compactMap(\.label) }

    @Test("The table names exactly the declaration's fields, and each change leaves the default")
    func everyField() {
        #expect(Set(Self.fields) == Set(Self.changes.keys), "fields: \(Self.fields.sorted())")
        let defaults = ConversionOptions()
        for field in Self.fields {
            var changed = defaults
            Self.changes[field]?(&changed)
            #expect(changed != defaults, "changing \(field) changes the options")
        }
        #expect(Set(Self.parentOnly.keys).isSubset(of: Self.fields) && Set(Self.notInFingerprint.keys).isSubset(of: Self.fields))
    }

    @Test("Every field but the parent's own crosses the wire to the worker, each changed at once")
    func wire() throws {
        var options = ConversionOptions()
        for field in Self.fields where Self.parentOnly[field] == nil { Self.changes[field]?(&options) }
        let job = WorkerJob(job: ConversionJob(source: .path("a.heic"), output: .path("a.jpg"), action: .convert), options: options)
        guard case .job(let decoded) = try WorkerMessage.decode(WorkerMessage.job(job).encoded()) else {
            Issue.record("not a job"); return
        }
        #expect(decoded.options == options)
        for field in Self.fields {
            var one = ConversionOptions()
            Self.changes[field]?(&one)
            let sent = WorkerJob(job: job.job, options: one)
            guard case .job(let got) = try WorkerMessage.decode(WorkerMessage.job(sent).encoded()) else { continue }
            #expect((got.options == one) == (Self.parentOnly[field] == nil), "\(field): crosses the wire unless the parent's own")
        }
    }

    @Test("Every field that shapes an output changes the state's fingerprint")
    func fingerprint() {
        let base = ConversionOptions().fingerprint
        for field in Self.fields {
            var one = ConversionOptions()
            Self.changes[field]?(&one)
            #expect((one.fingerprint != base) == (Self.notInFingerprint[field] == nil),
                    "\(field): in the fingerprint unless it never changes an output (\(one.fingerprint))")
        }
    }
}
