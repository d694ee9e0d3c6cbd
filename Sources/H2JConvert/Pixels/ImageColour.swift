/// What an image's pixels stand for, as far as the pixel stage and the graft care:
/// colours described by an ICC profile (nil: sRGB, what an untagged JPEG means), or data
/// (an auxiliary image, a gain map: distances, exponents) that no colour step touches.
enum ImageColour: Equatable {
    case colour(profile: [UInt8]?)
    case data
}
