#if canImport(Glibc)
import Glibc
#endif

import H2JBatch
import H2JConvert
import H2JJob
import H2JSupport
import H2JWorker

// Before anything is opened (a worker's socket would otherwise take a closed stdout's
// number and receive its JPEG): descriptors 0-2 are made to exist.
let closedStreams = StandardStreams.openClosed()
// The arguments' bytes as they are: `CommandLine.arguments` would "repair" a file name
// that is not UTF-8 into another name (`PathBytes` keeps every byte).
let arguments = (1..<Int(CommandLine.argc)).map { PathBytes.string(cString: CommandLine.unsafeArgv[$0]!) }
// A worker process (started by the parent's WorkerSupervisor), or the program.
exit(arguments.first == WorkerLimits.workerArgument ? WorkerMain.run(arguments.dropFirst()) : CommandLineTool.main(arguments, closedStreams: closedStreams))
