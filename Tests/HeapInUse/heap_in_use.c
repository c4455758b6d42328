#include "HeapInUse.h"

#include <stdlib.h>  /* defines __GLIBC__ on glibc */

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

long long singleton_stores_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)info.uordblks;
}
#else
long long singleton_stores_heap_in_use(void) {
    return -1;
}
#endif
