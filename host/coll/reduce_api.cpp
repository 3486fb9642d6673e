// Entry points of the reductions: shmem_TYPE_OP_reduce on teams and shmem_TYPE_OP_to_all on 1.4
// active sets, generated from the type tables in runtime/api/types.h. Each instantiates only the
// element-wise fold; the algorithm (reduce.cpp) is one function for every type.
#include <type_traits>

#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"

using namespace gio;

namespace {

// Integer sums and products wrap, computed in an unsigned type at least as wide as int, so neither
// signed overflow nor the promotion of short operands to int is undefined. Floating point and
// complex numbers use their own + and *.
template <typename T, bool = std::is_integral<T>::value>
struct wide {
  using type = T;
};
template <typename T>
struct wide<T, true> {
  using type = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};
template <typename T>
T add(T a, T b) {
  using W = typename wide<T>::type;
  return (T)((W)a + (W)b);
}
template <typename T>
T mul(T a, T b) {
  using W = typename wide<T>::type;
  return (T)((W)a * (W)b);
}

struct op_and { template <typename T> static T apply(T a, T b) { return (T)(a & b); } };
struct op_or { template <typename T> static T apply(T a, T b) { return (T)(a | b); } };
struct op_xor { template <typename T> static T apply(T a, T b) { return (T)(a ^ b); } };
struct op_max { template <typename T> static T apply(T a, T b) { return a < b ? b : a; } };
struct op_min { template <typename T> static T apply(T a, T b) { return b < a ? b : a; } };
struct op_sum { template <typename T> static T apply(T a, T b) { return add(a, b); } };
struct op_prod { template <typename T> static T apply(T a, T b) { return mul(a, b); } };

template <typename T, typename Op>
void fold(void* acc, const void* in, size_t n) {
  T* a = (T*)acc;
  const T* b = (const T*)in;
  for (size_t i = 0; i < n; ++i) a[i] = Op::apply(a[i], b[i]);
}

void reduce(const char* routine, coll_over o, void* dest, const void* source, size_t nreduce, size_t elem,
            combine_fn f) {
  runtime& r = rt_checked(routine);
  const group g = o.group_of(r, routine);
  const size_t bytes = coll_bytes(g, nreduce, elem);
  coll_check_sym(r, g, "dest", dest, bytes);
  coll_check_sym(r, g, "source", source, bytes);
  const uint8_t *d = (const uint8_t*)dest, *s = (const uint8_t*)source;
  if (d != s && d < s + bytes && s < d + bytes)
    fatal(GIO_ERR_ARG, routine, "dest %p and source %p overlap without being the same (%zu bytes each)", dest, source,
          bytes);
  coll_reduce(r, g, dest, source, nreduce, elem, f);
}

void scan(const char* routine, shmem_team_t team, void* dest, const void* source, size_t nelems, size_t elem,
          combine_fn f, bool inclusive) {
  runtime& r = rt_checked(routine);
  const group g = coll_over::team(team).group_of(r, routine);
  const size_t bytes = coll_bytes(g, nelems, elem);
  coll_check_sym(r, g, "dest", dest, bytes);
  coll_check_sym(r, g, "source", source, bytes);
  const uint8_t *d = (const uint8_t*)dest, *s = (const uint8_t*)source;
  if (d != s && d < s + bytes && s < d + bytes)
    fatal(GIO_ERR_ARG, routine, "dest %p and source %p overlap without being the same (%zu bytes each)", dest, source,
          bytes);
  coll_scan(r, g, dest, source, nelems, elem, f, inclusive);
}

}  // namespace

#define GIO_DEF_SCAN(OP, NAME, T)                                                                           \
  extern "C" int gio_host_##NAME##_##OP##_inscan(shmem_team_t team, T* dest, const T* source, size_t nelems) { \
    scan("shmem_" #NAME "_" #OP "_inscan", team, dest, source, nelems, sizeof(T), &fold<T, op_##OP>, true); \
    return 0;                                                                                               \
  }                                                                                                         \
  extern "C" int gio_host_##NAME##_##OP##_exscan(shmem_team_t team, T* dest, const T* source, size_t nelems) { \
    scan("shmem_" #NAME "_" #OP "_exscan", team, dest, source, nelems, sizeof(T), &fold<T, op_##OP>, false); \
    return 0;                                                                                               \
  }
GIO_SCAN_OPS(GIO_REDUCE_EACH, GIO_DEF_SCAN)
#undef GIO_DEF_SCAN

#define GIO_DEF_REDUCE(OP, NAME, T)                                                                       \
  extern "C" int gio_host_##NAME##_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce) { \
    reduce("shmem_" #NAME "_" #OP "_reduce", coll_over::team(team), dest, source, nreduce, sizeof(T),    \
           &fold<T, op_##OP>);                                                                            \
    return 0;                                                                                             \
  }
GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_DEF_REDUCE)
#undef GIO_DEF_REDUCE

// pWrk is not needed: partial results live in host memory.
#define GIO_DEF_TO_ALL(OP, NAME, T)                                                                       \
  extern "C" void shmem_##NAME##_##OP##_to_all(T* dest, const T* source, int nreduce, int PE_start,       \
                                               int logPE_stride, int PE_size, T* pWrk, long* pSync) {     \
    (void)pWrk;                                                                                           \
    const char* routine = "shmem_" #NAME "_" #OP "_to_all";                                               \
    if (nreduce < 0) fatal(GIO_ERR_ARG, routine, "nreduce %d is negative", nreduce);                      \
    reduce(routine, coll_over::set(PE_start, logPE_stride, PE_size, pSync), dest, source, (size_t)nreduce, \
           sizeof(T), &fold<T, op_##OP>);                                                                 \
  }
GIO_TO_ALL_OPS(GIO_REDUCE_EACH, GIO_DEF_TO_ALL)
#undef GIO_DEF_TO_ALL
