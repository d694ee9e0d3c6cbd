#if canImport(Glibc)
import Glibc
#endif
import HEIC2JPGKit

exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
