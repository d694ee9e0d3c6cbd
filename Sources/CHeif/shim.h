// libheif's public C API (Debian: libheif-dev). Included through a shim so the
// module map does not depend on the include directory layout.
#include <libheif/heif.h>
