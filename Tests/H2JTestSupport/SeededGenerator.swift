import Foundation
import Testing

/// A seeded random number generator (SplitMix64) for tests that draw random inputs, so a
/// failure can be replayed: `SeededGenerator("Suite/test")` takes its seed from the
/// environment variable `H2J_TEST_SEED` (decimal) when set, else a fresh random one, and
/// prints it with the command that replays it. Put `seed` in failure comments.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    package static let environmentVariable = "H2J_TEST_SEED"

    package let seed: UInt64
    private var state: UInt64

    /// A generator with exactly `seed` (nothing printed).
    package init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// `name` is the test's name as `swift test --filter` selects it, e.g.
    /// "JPEGStructureTests/robustness".
    package init(_ name: String) {
        self.init(seed: Self.seedFromEnvironment() ?? UInt64.random(in: .min ... .max))
        print("seed for \(name): \(seed) (replay: \(Self.environmentVariable)=\(seed) swift test --filter \(name))")
    }

    /// The seed `H2J_TEST_SEED` asks for; nil when unset. A value that is not a decimal
    /// UInt64 fails the running test (a replay must not silently use another seed).
    package static func seedFromEnvironment() -> UInt64? {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable] else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let seed = UInt64(trimmed) else {
            Issue.record("\(environmentVariable)=\(text) is not a decimal UInt64; using a fresh seed")
            return nil
        }
        return seed
    }

    /// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit state advanced by the golden ratio,
    /// output through a bijective mix.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
