import H2JJPEG
import H2JJPEGCodec

/// The graft's segments go into libjpeg's output after its frame header.
extension JPEGWriter: JPEGSegmentSink {}
