// LittleCMS 2's public C API (Debian: liblcms2-dev): builds the ICC profiles that
// describe nclx-only sources, and converts pixels to sRGB. Included through a shim so
// the module map does not depend on the include directory layout.
#include <lcms2.h>

// TYPE_RGB_8 is a function-like macro, which Swift does not import.
static const cmsUInt32Number h2j_type_rgb_8 = TYPE_RGB_8;
