import CSandboxProbe
import Foundation
import H2JTestSupport
import Testing

/// The worker's seccomp filter: a decoder taken over by a hostile file can read, compute
/// and write to the descriptors it was given, and nothing else.
@Suite("Worker sandbox")
struct WorkerSandboxTests {
    @Test("Inside the filter: no file created, opened for writing, renamed or removed; no socket, no exec; reading, writing given descriptors and threads still work")
    func sandbox() throws {
        let scratch = TemporaryDirectory()
        let existing = scratch.file("existing", [1, 2, 3])
        let bits = h2j_probe_sandbox(scratch.path, existing)
        try #require(bits != -2, "the kernel refused the seccomp filter")
        try #require(bits >= 0, "the probe child did not run")
        let allowed = Int32(H2J_PROBE_READ_FILE | H2J_PROBE_WRITE_OPEN_DESCRIPTOR | H2J_PROBE_START_THREAD)
        #expect(bits == allowed, "probe bits \(String(bits, radix: 2))")
        #expect(scratch.exists("existing") && !scratch.exists("created") && !scratch.exists("made") && !scratch.exists("renamed"))
    }
}
