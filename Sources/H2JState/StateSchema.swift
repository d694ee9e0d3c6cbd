/// The state database's schema, versioned with `PRAGMA user_version`: `migrations[i]`
/// takes a database from version i to i + 1, and opening applies whatever is missing.
/// A database of a newer version than this binary knows is refused, never changed.
///
/// Paths are blobs of their exact bytes (`PathBytes`): a source's `root` is its input's
/// absolute path, `path` the source's path relative to it; an output's `path` is
/// absolute. Times are nanoseconds since 1970. A source is keyed by its `dir` (the
/// directory part of `path`, empty at the root) and `name`, and its outputs by their
/// `source_dir`: a rerun reads a directory's records in one range scan per table.
enum StateSchema {
    /// One step of the schema: SQL, then, for data SQL cannot compute, a Swift pass.
    struct Migration: Sendable {
        let sql: String
        var backfill: (@Sendable (SQLiteConnection) throws(StateError) -> Void)? = nil
    }

    static let migrations: [Migration] = [
        // 1: runs, sources, outputs, hand-offs.
        Migration(sql: """
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            started_ns INTEGER NOT NULL,
            finished_ns INTEGER,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            version TEXT NOT NULL,
            options TEXT NOT NULL,
            converted INTEGER, updated INTEGER, copied INTEGER, skipped INTEGER, failed INTEGER,
            missing INTEGER, exit_code INTEGER
        );
        CREATE TABLE sources (
            root BLOB NOT NULL,
            path BLOB NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            device INTEGER NOT NULL,
            sha256 TEXT,
            status TEXT NOT NULL,
            error_code TEXT,
            reason TEXT,
            tool_version TEXT NOT NULL,
            options TEXT NOT NULL,
            started_ns INTEGER NOT NULL,
            finished_ns INTEGER NOT NULL,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            PRIMARY KEY (root, path)
        ) WITHOUT ROWID;
        CREATE TABLE outputs (
            root BLOB NOT NULL,
            source BLOB NOT NULL,
            path BLOB NOT NULL,
            size INTEGER NOT NULL,
            sha256 TEXT,
            kind TEXT NOT NULL,
            inode INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            PRIMARY KEY (root, source, path),
            FOREIGN KEY (root, source) REFERENCES sources(root, path) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX outputs_by_path ON outputs(path);
        CREATE TABLE handoffs (
            root BLOB NOT NULL,
            source BLOB NOT NULL,
            action TEXT NOT NULL,
            destination BLOB,
            at_ns INTEGER NOT NULL,
            run_id INTEGER NOT NULL REFERENCES runs(id)
        );
        """),
        // 2: whether a source's outputs carry all of it, and its planned size (for the
        // verified hand-off of originals).
        Migration(sql: """
        ALTER TABLE sources ADD COLUMN complete INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sources ADD COLUMN width INTEGER;
        ALTER TABLE sources ADD COLUMN height INTEGER;
        """),
        // 3: sources and outputs keyed by directory, so that a rerun reads a directory's
        // records in two range scans (one per table) rather than three B-tree searches
        // per source; `path` stays, uniquely indexed, for lookups by path.
        Migration(sql: """
        CREATE TABLE sources_v3 (
            root BLOB NOT NULL,
            dir BLOB NOT NULL,
            name BLOB NOT NULL,
            path BLOB NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            device INTEGER NOT NULL,
            sha256 TEXT,
            status TEXT NOT NULL,
            error_code TEXT,
            reason TEXT,
            tool_version TEXT NOT NULL,
            options TEXT NOT NULL,
            started_ns INTEGER NOT NULL,
            finished_ns INTEGER NOT NULL,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            complete INTEGER NOT NULL DEFAULT 0,
            width INTEGER,
            height INTEGER,
            PRIMARY KEY (root, dir, name)
        ) WITHOUT ROWID;
        CREATE TABLE outputs_v3 (
            root BLOB NOT NULL,
            source_dir BLOB NOT NULL,
            source BLOB NOT NULL,
            path BLOB NOT NULL,
            size INTEGER NOT NULL,
            sha256 TEXT,
            kind TEXT NOT NULL,
            inode INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            PRIMARY KEY (root, source_dir, source, path)
        ) WITHOUT ROWID;
        """, backfill: { connection throws(StateError) in
            // Rows move with their directory split off their path (bytes: SQL cannot split a blob at its last '/').
            for row in try connection.rows("SELECT root, path FROM sources") {
                guard row.count == 2, let root = row[0].blob, let path = row[1].blob else { continue }
                let (dir, name) = SourceRecord.splitBytes(path)
                _ = try connection.rows("""
                    INSERT INTO sources_v3 SELECT root, ?, ?, path, size, mtime_ns, inode, device, sha256, status, error_code,
                    reason, tool_version, options, started_ns, finished_ns, run_id, complete, width, height
                    FROM sources WHERE root = ? AND path = ?
                    """, [.blob(dir), .blob(name), .blob(root), .blob(path)])
                _ = try connection.rows("""
                    INSERT INTO outputs_v3 SELECT root, ?, source, path, size, sha256, kind, inode, mtime_ns
                    FROM outputs WHERE root = ? AND source = ?
                    """, [.blob(dir), .blob(root), .blob(path)])
            }
            try connection.execute("""
                DROP TABLE outputs;
                DROP TABLE sources;
                ALTER TABLE sources_v3 RENAME TO sources;
                ALTER TABLE outputs_v3 RENAME TO outputs;
                CREATE UNIQUE INDEX sources_by_path ON sources(root, path);
                """)
        }),
        // 4: the shard (`--shard K/N`) each run took, so that `status` can name the shards
        // of a migration that have no state.
        Migration(sql: """
        ALTER TABLE runs ADD COLUMN shard_index INTEGER;
        ALTER TABLE runs ADD COLUMN shard_count INTEGER;
        """),
        // 5: the verified hand-off (issue #19): each source's ctime as the conversion's
        // `fstat` saw it (the hand-off removes a source only while it is unchanged), and
        // how its last hand-off ended: `handed_off` (`deleted`, `moved`; such a source is
        // never `missing-source`) or why it was `kept`.
        Migration(sql: """
        ALTER TABLE sources ADD COLUMN ctime_ns INTEGER;
        ALTER TABLE sources ADD COLUMN handed_off TEXT;
        ALTER TABLE sources ADD COLUMN kept TEXT;
        """),
    ]

    static var currentVersion: Int { migrations.count }
}
