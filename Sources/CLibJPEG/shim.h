// libjpeg-turbo (Debian: libjpeg62-turbo-dev). jpeglib.h uses size_t and FILE without
// including their headers, so they must come first.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
