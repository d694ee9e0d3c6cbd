#if canImport(Glibc)
import Glibc
#endif

import H2JPipeline

let arguments = Array(CommandLine.arguments.dropFirst())
// A worker process (started by the parent's WorkerSupervisor), or the program.
exit(arguments.first == WorkerMain.argument ? WorkerMain.run(arguments.dropFirst()) : CommandLineTool.main(arguments))
