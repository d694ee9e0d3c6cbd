import H2JJPEGCodec
import H2JTiles

/// The tile engine's bands go straight into libjpeg's raw-data encoder.
extension JPEGWriter: RawPlaneSink {}
