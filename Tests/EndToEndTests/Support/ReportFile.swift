import Foundation

/// A `--report` file read back: the per-file objects by source file name, and the summary.
struct ReportFile {
    let bySource: [String: [String: Any]]
    let summary: [String: Any]?

    init(_ path: String) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        var bySource: [String: [String: Any]] = [:]
        var summary: [String: Any]?
        for line in lines {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if object["summary"] as? Bool == true { summary = object }
            if let source = object["source"] as? String { bySource[(source as NSString).lastPathComponent] = object }
        }
        self.bySource = bySource
        self.summary = summary
    }

    /// The entries whose status is `status`.
    func entries(_ status: String) -> [String: [String: Any]] {
        bySource.filter { $0.value["status"] as? String == status }
    }
}
