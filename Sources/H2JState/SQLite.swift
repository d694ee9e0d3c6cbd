#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import H2JSupport

/// Why the state database could not do something: SQLite's result code and message,
/// the errno of the system call that failed (when one did), and the file.
package struct StateError: Error, Equatable, CustomStringConvertible {
    package let path: String
    /// SQLite's (extended) result code; 0 for our own checks.
    package let resultCode: Int32
    package let message: String
    /// `sqlite3_system_errno` after the failure; 0 when no system call failed.
    package var systemErrno: Int32 = 0

    package init(path: String, code: Int32, message: String, systemErrno: Int32 = 0) {
        self.path = path
        self.resultCode = code
        self.message = message
        self.systemErrno = systemErrno
    }

    package var description: String { "state \(path): \(message)" + (systemErrno != 0 ? " (\(POSIX.describe(systemErrno)))" : "") }

    /// The errno that says a resource ran out under the state, if one did: ENOSPC for
    /// SQLITE_FULL; EROFS for SQLITE_READONLY on a file system mounted read-only (SQLite
    /// opens such a file read-only and reports its first write that way); otherwise the
    /// failed call's own errno. The run stops on these (exit 75), as for an output disk.
    package var resourceErrno: Int32? {
        if resultCode & 0xFF == SQLITE_FULL { return ENOSPC }
        if [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_IOERR].contains(resultCode & 0xFF), POSIX.isOnReadOnlyFileSystem(path) { return EROFS }
        return systemErrno != 0 ? systemErrno : nil
    }
}

/// A value bound to, or read from, an SQL statement. Paths are blobs: they are bytes.
package enum SQLValue: Equatable, Sendable {
    case integer(Int)
    case text(String)
    case blob([UInt8])
    case null
}

/// One SQLite connection: the one place a `sqlite3_*` call is made. Not thread-safe on
/// its own; `StateDatabase` serialises every use with a lock.
final class SQLiteConnection {
    let path: String
    private let handle: OpaquePointer
    /// Prepared statements by their SQL, each prepared once (parsing was most of a no-op
    /// rerun's time) and reset after every use.
    private var statements: [String: OpaquePointer] = [:]
    /// Cleared by `close`: every later call throws rather than touch a closed handle.
    private var isOpen = true

    /// Opens (and with `create`, creates) the database at `path`; `readOnly` for reading
    /// only (`heic2jpg status`).
    init(path: String, create: Bool, readOnly: Bool = false) throws(StateError) {
        var opened: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)) | SQLITE_OPEN_NOMUTEX
        let code = (PathBytes.bytes(path) + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { sqlite3_open_v2($0.baseAddress, &opened, flags, nil) }
        }
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open: code \(code)"
            let systemErrno = opened.map { Self.systemErrno($0, code) } ?? 0
            sqlite3_close(opened)
            throw StateError(path: path, code: code, message: message, systemErrno: systemErrno)
        }
        self.path = path
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit { close() }

    /// Finalises the statements and closes the handle (once). The last connection to
    /// close checkpoints the WAL into the file and removes it, leaving one file.
    func close() {
        guard isOpen else { return }
        isOpen = false
        statements.values.forEach { sqlite3_finalize($0) }
        statements = [:]
        sqlite3_close(handle)
    }

    private func checkOpen() throws(StateError) {
        guard isOpen else { throw StateError(path: path, code: SQLITE_MISUSE, message: "is closed") }
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StateError) {
        try checkOpen()
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "code \(code)"
            sqlite3_free(error)
            throw StateError(path: path, code: code, message: message, systemErrno: Self.systemErrno(handle, code))
        }
    }

    /// The rows of `sql` with `values` bound to its `?` parameters, each row its columns.
    func rows(_ sql: String, _ values: [SQLValue] = []) throws(StateError) -> [[SQLValue]] {
        var result: [[SQLValue]] = []
        try each(sql, values) { row in result.append((0..<row.count).map(row.value)) }
        return result
    }

    /// Calls `body` with each row of `sql` (with `values` bound), read in place: no
    /// row is copied unless `body` copies it. The statement is prepared once and reused.
    func each(_ sql: String, _ values: [SQLValue], _ body: (SQLRow) -> Void) throws(StateError) {
        try stepping(sql, values) { (rows: SQLCursor) throws(StateError) in
            while try rows.next() { body(rows.row) }
        }
    }

    /// Runs `body` with a cursor over the rows of `sql` (with `values` bound), stepped by
    /// `body` itself: two cursors stepped side by side merge two sorted results in place.
    /// The statement is reset when `body` returns.
    func stepping<R>(_ sql: String, _ values: [SQLValue], _ body: (SQLCursor) throws(StateError) -> R) throws(StateError) -> R {
        try checkOpen()
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &prepared, nil) == SQLITE_OK, let prepared else { throw failure() }
            statements[sql] = prepared
            statement = prepared
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let code: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, sqlite3_int64(number))
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, Self.transient)
            case .blob(let bytes): bytes.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), Self.transient) }
            case .null: sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw failure() }
        }
        return try body(SQLCursor(row: SQLRow(statement: statement), connection: self))
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, so two runs never interleave
    /// their writes); rolls back when it throws.
    func transaction<R>(_ body: () throws -> R) throws(StateError) -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error as? StateError ?? StateError(path: path, code: 0, message: "\(error)")
        }
    }

    fileprivate func failure() -> StateError {
        let code = sqlite3_extended_errcode(handle)
        return StateError(path: path, code: code, message: String(cString: sqlite3_errmsg(handle)),
                          systemErrno: Self.systemErrno(handle, code))
    }

    /// The errno of the system call behind a failure whose code says one failed (I/O, a
    /// full disk, a file that cannot be opened or written); 0 otherwise, since SQLite
    /// keeps the last errno of calls it handled itself too.
    private static func systemErrno(_ handle: OpaquePointer, _ code: Int32) -> Int32 {
        [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY].contains(code & 0xFF) ? sqlite3_system_errno(handle) : 0
    }

    /// SQLITE_TRANSIENT: SQLite copies a bound value before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A statement being stepped by its caller (`SQLiteConnection.stepping`): `row` is the
/// current row once `next()` has said there is one, valid until the next step.
struct SQLCursor {
    let row: SQLRow
    fileprivate unowned let connection: SQLiteConnection

    /// Steps to the next row: false when there is none.
    func next() throws(StateError) -> Bool {
        let code = sqlite3_step(row.statement)
        if code == SQLITE_DONE { return false }
        guard code == SQLITE_ROW else { throw connection.failure() }
        return true
    }
}

/// The current row of a statement being stepped (`SQLiteConnection.each`): valid only
/// inside the call. A column of another type reads as 0, nil or empty.
struct SQLRow {
    fileprivate let statement: OpaquePointer

    var count: Int { Int(sqlite3_column_count(statement)) }

    func integer(_ index: Int) -> Int { Int(sqlite3_column_int64(statement, Int32(index))) }

    func optionalInteger(_ index: Int) -> Int? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_INTEGER ? integer(index) : nil
    }

    func text(_ index: Int) -> String? {
        guard sqlite3_column_type(statement, Int32(index)) == SQLITE_TEXT else { return nil }
        return sqlite3_column_text(statement, Int32(index)).map { String(cString: $0) } ?? ""
    }

    func blob(_ index: Int) -> [UInt8] {
        Array(bytes(index))
    }

    /// A blob column that holds a path's bytes (`PathBytes`), read in place.
    func path(_ index: Int) -> String {
        PathBytes.string(bytes(index))
    }

    /// A blob column's bytes in place: valid until the statement steps again.
    func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        guard count > 0, let bytes = sqlite3_column_blob(statement, Int32(index)) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: bytes, count: count)
    }

    func value(_ index: Int) -> SQLValue {
        switch sqlite3_column_type(statement, Int32(index)) {
        case SQLITE_INTEGER: .integer(integer(index))
        case SQLITE_TEXT: .text(text(index) ?? "")
        case SQLITE_BLOB: .blob(blob(index))
        default: .null
        }
    }
}

extension SQLValue {
    var integer: Int? { if case .integer(let value) = self { value } else { nil } }
    var text: String? { if case .text(let value) = self { value } else { nil } }
    var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
}

extension StateError: CodedError {
    package var code: ErrorCode { ErrorCode(errno: resourceErrno, otherwise: .stateUnusable) }
}
