// zlib's public C API (Debian: zlib1g-dev): inflates the deflate and zlib generic
// compression of uncompressed (`unci`) HEIF images. Included through a shim so the
// module map does not depend on the include directory layout.
#include <zlib.h>
