/// Everything one `heic2jpg watch` needs: a convert request over directories, and how
/// the watch waits and walks again.
package struct WatchRequest: Sendable, Equatable {
    package var batch: BatchRequest
    /// `--settle`: seconds a file must stay unchanged after it was written or moved in.
    /// Five by default: longer than the pauses of uploaders that close and reopen a file
    /// between chunks (a phone's WebDAV or SMB client, rsync's `--inplace`), short enough
    /// that a photo appears converted within seconds.
    package var settleSeconds = WatchRequest.defaultSettleSeconds
    /// `--rescan`: seconds between full walks; nil for none (a network file system gets
    /// one every five minutes, said at the start).
    package var rescanSeconds: Double?
    /// `--temp-name`: more uploaders' temp names, as globs on a name.
    package var tempNames: [String] = []

    package static let defaultSettleSeconds = 5.0

    package init(batch: BatchRequest) {
        self.batch = batch
    }
}
