// libheif's public C API (Debian: libheif-dev). Included through a shim so the
// module map does not depend on the include directory layout.
#include <libheif/heif.h>
// The decoder plugin interface: heic2jpg registers its own HEVC decoder (StrictHEVCPlugin).
#include <libheif/heif_plugin.h>
