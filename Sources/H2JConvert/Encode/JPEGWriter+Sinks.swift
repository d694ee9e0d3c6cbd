import H2JJPEG
import H2JJPEGCodec

/// libjpeg's writer is the end of every chain: the graft's segments go into its output
/// after the frame header, and the pixel stage's bands into its encoder (raw planes
/// straight to `jpeg_write_raw_data`).
extension JPEGWriter: JPEGSegmentSink, PixelSink {}
