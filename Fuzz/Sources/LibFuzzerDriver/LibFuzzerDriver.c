// Declarations only: LLVMFuzzerRunDriver comes from the toolchain's libFuzzer.
#include "LibFuzzerDriver.h"
