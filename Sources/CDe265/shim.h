// libde265's public C API (Debian: libde265-dev): the HEVC decoder behind the tile
// engine. Included through a shim so the module map does not depend on the include
// directory layout.
#include <libde265/de265.h>
