/// Why `compare` could not compare one file; the message names the mode or step at
/// fault and the cause. `CompareCommand` prefixes the file name.
package struct CompareError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
