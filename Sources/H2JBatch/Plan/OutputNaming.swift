import H2JOutputPlan
import H2JSupport

/// How the planner names a source's primary output (its other outputs are named beside
/// it: `OutputName`).
package enum OutputNaming: Sendable, Equatable {
    /// `--name TEMPLATE` (`{stem}` by default) and `.jpg`, in the source's output directory.
    case template(NameTemplate)
    /// `-o FILE.jpg` (or `IN OUT.jpg`): that path exactly, for the run's one source.
    case file(String)

    /// The primary's path for `candidate`.
    func path(for candidate: Candidate) -> String {
        switch self {
        case .template(let template): Path.join(candidate.outputDirectory, template.expand(Path.lastComponent(candidate.path)) + ".jpg")
        case .file(let path): path
        }
    }

    /// Each image's own name, for a template with `{n}`; nil otherwise.
    func numbered(for candidate: Candidate) -> NumberedNames? {
        guard case .template(let template) = self else { return nil }
        return template.numberedNames(Path.lastComponent(candidate.path))
    }

    /// What the state's fingerprint adds (`RunState`): a template other than `{stem}`, so
    /// that a rerun with another one converts again (and removes the outputs named the old
    /// way, `StaleOutputs`); nothing otherwise, so a state written before `--name` matches.
    var fingerprint: String {
        guard case .template(let template) = self, template != .standard else { return "" }
        return ";name=" + template.description
    }

    /// The directory `candidate`'s outputs go in (where killed runs' temp files are swept).
    func directory(for candidate: Candidate) -> String {
        Path.parent(path(for: candidate))
    }
}
