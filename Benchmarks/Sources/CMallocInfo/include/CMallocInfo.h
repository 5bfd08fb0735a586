// glibc's heap statistics for memory-footprint (malloc.h is not in Swift's Glibc module).
#ifndef CMALLOCINFO_H
#define CMALLOCINFO_H
#include <stddef.h>

/// Bytes allocated and not freed: small blocks in use plus mmapped blocks (mallinfo2). -1 where
/// glibc's mallinfo2 is missing.
long long cmallocinfo_heap_in_use(void);

/// Returns free memory at the top of the heap and in free chunks to the system (malloc_trim(0)).
void cmallocinfo_trim(void);

#endif
