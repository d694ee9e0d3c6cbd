#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import H2JPipeline
import H2JSupport

/// SIGINT/SIGTERM handling: remove every temp file, then exit with 128 + signal.
///
/// The handler runs on a Dispatch queue (not in signal context), so it may take locks;
/// `OutputPublisher.removeAllAndSeal` also stops workers from publishing afterwards.
package final class SignalCleanup {
    private let sources: [DispatchSourceSignal]

    package init(publisher: OutputPublisher) {
        let queue = DispatchQueue(label: "heic2jpg.signals")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                publisher.removeAllAndSeal()
                POSIX.writeLine("\nheic2jpg: interrupted by signal \(number); no partial output left", to: STDERR_FILENO)
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
