#include "CMallocInfo.h"
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

long long cmallocinfo_heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}

void cmallocinfo_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
