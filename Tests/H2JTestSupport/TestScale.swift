/// Iteration counts of the mutation loops in unit tests. Debug builds (what CI's
/// `swift test` runs) do a quarter of the work; release builds the full count. The
/// mutation loops check invariants on a sample; libFuzzer (Scripts/fuzz) covers scale.
package enum TestScale {
    /// `full` in release; in debug a quarter of it, at least 1.
    package static func iterations(_ full: Int) -> Int {
        #if DEBUG
        return max(1, full / 4)
        #else
        return full
        #endif
    }
}
