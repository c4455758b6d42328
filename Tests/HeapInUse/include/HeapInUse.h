#ifndef SINGLETON_STORES_HEAP_IN_USE_H
#define SINGLETON_STORES_HEAP_IN_USE_H

#include <stddef.h>

/// The bytes the C library's allocator has handed out and not had back, or -1 where it
/// cannot say (a C library other than glibc). Used by `storage-stress watch-churn` to
/// measure what each store holds, which the resident size measures only roughly.
long long singleton_stores_heap_in_use(void);

#endif
