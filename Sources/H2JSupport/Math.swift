#if canImport(Glibc)
import Glibc
#endif

/// The few libm functions the pure layers need (HDR headrooms are powers of two), so
/// that those layers import no C module themselves.
package enum Math {
    package static func exp2(_ x: Double) -> Double { Glibc.exp2(x) }
    package static func log2(_ x: Double) -> Double { Glibc.log2(x) }
    package static func pow(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
}
