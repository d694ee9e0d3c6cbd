import H2JSupport

/// The warnings the graft stage emits about source data the JPEG does not carry.
extension Warning.Code {
    /// A Samsung `sefd` trailer too large, or not shaped like one, was not appended.
    package static let trailerNotCarried = Self("trailer-not-carried")
    /// A motion photo's video (`mpvd`) was not carried.
    package static let motionPhotoNotCarried = Self("motion-photo-not-carried")
    /// Bytes after the last complete top-level box were not carried.
    package static let trailingBytesNotCarried = Self("trailing-bytes-not-carried")
    /// The EXIF or XMP of an auxiliary image (depth map, gain map, alpha) was not carried.
    package static let auxiliaryMetadataNotCarried = Self("auxiliary-metadata-not-carried")
}
