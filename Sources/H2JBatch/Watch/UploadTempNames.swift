/// Names uploaders and sync tools write under until a file is complete, then rename
/// from: a watch (and its walks) passes such a file over until it has its final name, so
/// an upload that never completes is never converted and never reported failed.
enum UploadTempNames {
    /// Browsers' and uploaders' `*.part`; `.*.tmp` (Syncthing's `.syncthing.NAME.tmp`,
    /// many others); Syncthing on Windows' `~syncthing~NAME.tmp`; Syncthing's and
    /// others' `.~tmp~`; rsync's `.NAME.XXXXXX` (six random characters).
    static let patterns = ["*.part", ".*.tmp", "~syncthing~*.tmp", ".~tmp~", ".*.??????"]

    /// The built-in patterns and `more` (`--temp-name`), as names `ExcludePatterns` matches.
    static func excluding(_ more: [String]) -> ExcludePatterns {
        ExcludePatterns(patterns + more)
    }
}
