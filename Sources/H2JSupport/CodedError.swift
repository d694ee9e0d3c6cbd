/// An error that knows its report code: each error type states its own `ErrorCode`
/// where it is declared, so no table elsewhere has to know every type.
package protocol CodedError: Error {
    var code: ErrorCode { get }
}
