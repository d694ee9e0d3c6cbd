import H2JSupport

/// An output refused at its rename because the run's state can no longer record what is
/// published (`OutputPublisher.stopPublishing`): it stays unpublished, its temp file removed.
package struct PublishStopped: CodedError, CustomStringConvertible {
    package let output: String
    /// The state's error that stopped publishing.
    package let cause: String
    package let code: ErrorCode

    package var description: String { "\(output): not published, as the state cannot record it: \(cause)" }
}
