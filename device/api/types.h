// The OpenSHMEM 1.5 type tables, X(name, type), used to generate the typed routines once.
#pragma once
#include <stddef.h>
#include <stdint.h>

// Standard RMA types (long double is left out: no GPU supports it).
#define GIO_RMA_TYPES(X)                                                                        \
  X(float, float) X(double, double) X(char, char) X(schar, signed char) X(short, short)         \
  X(int, int) X(long, long) X(longlong, long long) X(uchar, unsigned char)                      \
  X(ushort, unsigned short) X(uint, unsigned int) X(ulong, unsigned long)                       \
  X(ulonglong, unsigned long long) X(int8, int8_t) X(int16, int16_t) X(int32, int32_t)          \
  X(int64, int64_t) X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t)                   \
  X(uint64, uint64_t) X(size, size_t) X(ptrdiff, ptrdiff_t)

// Standard AMO types (fetch_add, compare_swap, inc, ...).
#define GIO_AMO_STD_TYPES(X)                                                                    \
  X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int) X(ulong, unsigned long) \
  X(ulonglong, unsigned long long) X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t)      \
  X(uint64, uint64_t) X(size, size_t) X(ptrdiff, ptrdiff_t)

// Extended AMO types (fetch, set, swap) = standard + float, double.
#define GIO_AMO_EXT_TYPES(X) GIO_AMO_STD_TYPES(X) X(float, float) X(double, double)

// Bitwise AMO types (and, or, xor).
#define GIO_AMO_BIT_TYPES(X)                                                                    \
  X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)                \
  X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t)

// Point-to-point synchronization types (wait_until, test).
#define GIO_WAIT_TYPES(X)                                                                       \
  X(short, short) X(int, int) X(long, long) X(longlong, long long) X(ushort, unsigned short)    \
  X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)                \
  X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)  \
  X(ptrdiff, ptrdiff_t)

// Sized RMA routines: shmem_put{8,16,32,64,128}.
#define GIO_RMA_SIZES(X) X(8, 1) X(16, 2) X(32, 4) X(64, 8) X(128, 16)
