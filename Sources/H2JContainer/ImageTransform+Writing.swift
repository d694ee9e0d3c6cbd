/// A transform written back as the property box it was read from (`transforms(of:)`),
/// for the headers the container synthesizes.
extension ImageTransform {
    /// The `clap`, `irot` or `imir` box, which an item associates as essential.
    var propertyBox: [UInt8] {
        switch self {
        case .cleanAperture(let clap):
            BoxBytes.box("clap", [clap.widthNumerator, clap.widthDenominator, clap.heightNumerator, clap.heightDenominator,
                                  clap.horizontalOffsetNumerator, clap.horizontalOffsetDenominator,
                                  clap.verticalOffsetNumerator, clap.verticalOffsetDenominator].flatMap(BoxBytes.u32))
        case .rotation(let quarterTurns):
            BoxBytes.box("irot", [UInt8(quarterTurns & 0x03)])
        case .mirror(let axis):
            BoxBytes.box("imir", [axis == .horizontal ? 1 : 0])
        }
    }
}
