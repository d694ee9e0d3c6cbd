// libFuzzer's driver entry point (compiler-rt's FuzzerInterface.h, which the Swift
// toolchain does not install). Nothing is linked from here: `-sanitize=fuzzer` links
// libclang_rt.fuzzer, which defines it. Only heic2jpg-fuzz built with -D FUZZING calls it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
