// LittleCMS 2's public C API (Debian: liblcms2-dev): builds the ICC profiles that
// describe nclx-only sources. Included through a shim so the module map does not
// depend on the include directory layout.
#include <lcms2.h>
