import CSQLite
import H2JSupport

extension LibraryVersion {
    /// The loaded SQLite's version (`sqlite3_libversion`: "3.40.1").
    package static var sqlite: LibraryVersion { LibraryVersion("SQLite", cString: sqlite3_libversion()) }
}
