#ifndef LIB_FUZZER_DRIVER_H
#define LIB_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program with its own `main` (see LLVM's libFuzzer docs,
/// "Using libFuzzer as a library"). Links from the toolchain's libFuzzer (`-sanitize=fuzzer`).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
