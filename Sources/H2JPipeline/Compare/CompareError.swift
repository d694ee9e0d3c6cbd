/// Why `compare` could not compare one file; the message names the mode or step at
/// fault and the cause. `CompareCommand` prefixes the file name.
struct CompareError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
