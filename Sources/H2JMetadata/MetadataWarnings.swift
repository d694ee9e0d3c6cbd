import H2JSupport

/// The warnings the EXIF and XMP editors emit.
extension Warning.Code {
    /// Unreferenced bytes cut from the end of an EXIF over one APP1.
    package static let exifTrimmed = Self("exif-trimmed")
    /// The EXIF was laid out again, with the same entries and values, to fit one APP1.
    package static let exifRepacked = Self("exif-repacked")
    /// The EXIF could not be laid out again; only trimming and dropping the thumbnail were tried.
    package static let exifNotRepackable = Self("exif-not-repackable")
    /// The EXIF thumbnail (IFD1) was dropped to fit one APP1.
    package static let exifThumbnailDropped = Self("exif-thumbnail-dropped")
    /// A user text field (UserComment, ImageDescription, …) moved from the EXIF to the XMP.
    package static let exifMovedToXMP = Self("exif-moved-to-xmp")
    /// An empty user field was removed from an EXIF over one APP1.
    package static let exifFieldDropped = Self("exif-field-dropped")
    /// The maker note was dropped to fit one APP1.
    package static let exifMakerNoteDropped = Self("exif-maker-note-dropped")
    /// The whole EXIF was dropped (unreadable, or too large after every step).
    package static let exifDropped = Self("exif-dropped")
    /// Part of the EXIF could not be read and was left as it is.
    package static let exifPartUnreadable = Self("exif-part-unreadable")
    /// The EXIF pixel dimensions could not be updated.
    package static let exifDimensionsKept = Self("exif-dimensions-kept")
    /// Fields EXIF requires of a JPEG could not be added.
    package static let exifFieldsNotAdded = Self("exif-fields-not-added")
    /// The provenance ImageUniqueID could not be added to the EXIF (the XMP mark still is).
    package static let markNotInEXIF = Self("mark-not-in-exif")
    /// Properties (the mark, moved EXIF fields) could not be added to the XMP.
    package static let xmpNotAdded = Self("xmp-not-added")
    /// A property to add was already in the XMP; the packet's value was kept.
    package static let xmpPropertyKept = Self("xmp-property-kept")
    /// Properties moved into Extended XMP to fit one APP1.
    package static let xmpExtended = Self("xmp-extended")
    /// The whole XMP was dropped (too large even with Extended XMP).
    package static let xmpDropped = Self("xmp-dropped")
}
