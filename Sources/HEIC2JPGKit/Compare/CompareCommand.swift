/// `heic2jpg compare`: placeholder until the compare helper lands it.
enum CompareCommand {
    static func run(_ request: CompareRequest) -> Int32 { 64 }
}
