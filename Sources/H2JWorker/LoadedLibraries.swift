import H2JAVCodec
import H2JBrotli
import H2JColour
import H2JConvert
import H2JJob
import H2JDe265
import H2JDigest
import H2JJPEGCodec
import H2JLibheif
import H2JState
import H2JSupport
import H2JZlib

/// Every C library the program loads, with the version each reports at run time: the
/// worker is the one target that sees them all. libavcodec is dlopened: its line says
/// when it is not loaded, and why. `heic2jpg --version --verbose` lists them.
package enum LoadedLibraries {
    package static var all: [LibraryVersion] {
        [.libheif, .libde265, .libavcodec, .libjpegTurbo, .littleCMS, .sqlite, .libcrypto, .zlib, .brotli, .libseccomp]
    }
}
