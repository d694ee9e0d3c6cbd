import H2JJob

/// What a run wants to know, or to decide, around each publish (a state database, a
/// verified hand-off of originals). Both run on the publishing worker's thread, outside
/// the publisher's lock.
package struct PublishHooks: Sendable {
    /// Right before the rename, with the output complete and synced in its temp file;
    /// throwing vetoes the publish: the temp file is removed and the error fails the job.
    package var willPublish: @Sendable (_ output: String, _ source: String) throws -> Void
    /// Right after the rename, with the output's size.
    package var didPublish: @Sendable (_ output: String, _ source: String, _ bytes: Int) -> Void

    package init(willPublish: @escaping @Sendable (_ output: String, _ source: String) throws -> Void = { _, _ in },
                 didPublish: @escaping @Sendable (_ output: String, _ source: String, _ bytes: Int) -> Void = { _, _, _ in }) {
        self.willPublish = willPublish
        self.didPublish = didPublish
    }
}
