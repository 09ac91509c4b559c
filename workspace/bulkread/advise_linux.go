package bulkread

import "syscall"

// madvHugepage is MADV_HUGEPAGE (linux/mman.h).
const madvHugepage = 14

// adviseHuge asks for huge pages under b; the kernel may say no (THP off).
func adviseHuge(b []byte) { _ = syscall.Madvise(b, madvHugepage) }
