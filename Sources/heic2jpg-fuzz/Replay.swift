import Foundation

/// Replay mode of a normal build: runs each file through `FuzzedParsers.run`, so a crash
/// file from `Scripts/fuzz` reproduces under a debugger, without sanitizers. A trap is the
/// failure; reaching the end is success.
enum Replay {
    /// Exit status: 0 when every file ran, 1 when one could not be read, 2 for usage.
    static func run(_ paths: [String]) -> Int32 {
        if paths.isEmpty || paths.contains("-h") || paths.contains("--help") {
            print("usage: heic2jpg-fuzz FILE...  replays fuzzer inputs through the parsers (Scripts/fuzz fuzzes)")
            return paths.isEmpty ? 2 : 0
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("heic2jpg-fuzz: cannot read \(path)\n".utf8))
                return 1
            }
            FuzzedParsers.run([UInt8](data))
            print("ok \(path) (\(data.count) bytes)")
        }
        return 0
    }
}
