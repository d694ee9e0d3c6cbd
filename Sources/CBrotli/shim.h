// libbrotli's decoder (Debian: libbrotli-dev): decompresses the Brotli generic
// compression of uncompressed (`unci`) HEIF images. Included through a shim so the
// module map does not depend on the include directory layout.
#include <brotli/decode.h>
