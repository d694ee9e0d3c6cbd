/// `heic2jpg inspect`: placeholder until the inspect helper lands it.
enum InspectCommand {
    static func run(_ request: InspectRequest) -> Int32 { 64 }
}
