import H2JContainer
import H2JOutputPlan
import H2JSupport

extension Warning.Code {
    /// Warnings that say nothing of the source is missing from its outputs: what the
    /// user's options left out (`notCarried` names the rest), old outputs removed or kept,
    /// and a reader's size limit. The hand-off and a record's `complete` ignore them.
    static let nothingLeftOut: Set<Warning.Code> = [.contentNotConverted, .staleOutputRemoved, .staleOutputKept, .ultraHDRTooLarge]
}
