// The type-generic collectives (OpenSHMEM 1.5's C11 _Generic names: shmem_broadcast,
// shmem_sum_reduce, ...) as C++ templates that pick the typed routine, in host code and in kernels
// at thread scope. The type tables hold
// typedefs of one another (int64_t is long here), so each template tests the types in table order
// and takes the first that matches instead of declaring one overload per name. A type outside the
// routine's table does not compile.
#pragma once
#include <type_traits>

#include "device/api/coll.h"

#if __cplusplus >= 201703L
template <typename T>
struct gio_no_such_type : std::false_type {};

// Each mover's parameters for element type T (GIO_GP_) and the arguments it passes on (GIO_GA_).
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_GP_broadcast(T) (shmem_team_t team, T* dest, const T* source, size_t nelems, int PE_root)
#define GIO_GA_broadcast (team, dest, source, nelems, PE_root)
#define GIO_GP_collect(T) (shmem_team_t team, T* dest, const T* source, size_t nelems)
#define GIO_GA_collect (team, dest, source, nelems)
#define GIO_GP_fcollect GIO_GP_collect
#define GIO_GA_fcollect GIO_GA_collect
#define GIO_GP_alltoall GIO_GP_collect
#define GIO_GA_alltoall GIO_GA_collect
#define GIO_GP_alltoalls(T) (shmem_team_t team, T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems)
#define GIO_GA_alltoalls (team, dest, source, dst, sst, nelems)
#define GIO_GENERIC_TEAM_MOVE(ROUTINE)                                                                       \
  template <typename T>                                                                                     \
  GIO_HOST_DEVICE_INLINE int shmem_##ROUTINE GIO_GP_##ROUTINE(T) {                                                         \
    GIO_RMA_TYPES(GIO_GENERIC_CASE_##ROUTINE) {                                                             \
      static_assert(gio_no_such_type<T>::value, "shmem_" #ROUTINE ": not a standard RMA type");            \
      return -1;                                                                                            \
    }                                                                                                       \
  }
#define GIO_GENERIC_CASE(NAME, TT, ROUTINE) \
  if constexpr (std::is_same<T, TT>::value) return shmem_##NAME##_##ROUTINE GIO_GA_##ROUTINE; else
#define GIO_GENERIC_CASE_broadcast(NAME, TT) GIO_GENERIC_CASE(NAME, TT, broadcast)
#define GIO_GENERIC_CASE_collect(NAME, TT) GIO_GENERIC_CASE(NAME, TT, collect)
#define GIO_GENERIC_CASE_fcollect(NAME, TT) GIO_GENERIC_CASE(NAME, TT, fcollect)
#define GIO_GENERIC_CASE_alltoall(NAME, TT) GIO_GENERIC_CASE(NAME, TT, alltoall)
#define GIO_GENERIC_CASE_alltoalls(NAME, TT) GIO_GENERIC_CASE(NAME, TT, alltoalls)
GIO_GENERIC_TEAM_MOVE(broadcast)
GIO_GENERIC_TEAM_MOVE(collect)
GIO_GENERIC_TEAM_MOVE(fcollect)
GIO_GENERIC_TEAM_MOVE(alltoall)
GIO_GENERIC_TEAM_MOVE(alltoalls)
// The host-only types' movers are plain overloads, not cases of the templates: nvcc lets a
// __host__ __device__ template call host code, so a kernel's long double call would compile.
#define GIO_GENERIC_TEAM_MOVE_H(NAME, TT, ROUTINE) \
  GIO_HOST_INLINE int shmem_##ROUTINE GIO_GP_##ROUTINE(TT) { return shmem_##NAME##_##ROUTINE GIO_GA_##ROUTINE; }
#define GIO_GENERIC_TEAM_MOVES_H(NAME, TT)                                                        \
  GIO_GENERIC_TEAM_MOVE_H(NAME, TT, broadcast) GIO_GENERIC_TEAM_MOVE_H(NAME, TT, collect)         \
  GIO_GENERIC_TEAM_MOVE_H(NAME, TT, fcollect) GIO_GENERIC_TEAM_MOVE_H(NAME, TT, alltoall)         \
  GIO_GENERIC_TEAM_MOVE_H(NAME, TT, alltoalls)
GIO_RMA_HOST_TYPES(GIO_GENERIC_TEAM_MOVES_H)

// shmem_<op>_reduce(team, dest, source, nreduce) over the op's own type table, long double (host
// code only) as plain overloads for the movers' reason above (GIO_IS_LONGDOUBLE: device/api/coll.h).
#define GIO_GENERIC_REDUCE_CASE(OP, NAME, TT) GIO_CAT(GIO_GENERIC_REDUCE_CASE_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, TT)
#define GIO_GENERIC_REDUCE_CASE_0(OP, NAME, TT) \
  if constexpr (std::is_same<T, TT>::value) return shmem_##NAME##_##OP##_reduce(team, dest, source, nreduce); else
#define GIO_GENERIC_REDUCE_CASE_1(OP, NAME, TT)
#define GIO_GENERIC_REDUCE_H(OP, NAME, TT) GIO_CAT(GIO_GENERIC_REDUCE_H_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, TT)
#define GIO_GENERIC_REDUCE_H_0(OP, NAME, TT)
#define GIO_GENERIC_REDUCE_H_1(OP, NAME, TT)                                                        \
  GIO_HOST_INLINE int shmem_##OP##_reduce(shmem_team_t team, TT* dest, const TT* source, size_t nreduce) { \
    return shmem_##NAME##_##OP##_reduce(team, dest, source, nreduce);                               \
  }
#define GIO_GENERIC_REDUCE(OP, TABLE, Y)                                                                    \
  template <typename T>                                                                                     \
  GIO_HOST_DEVICE_INLINE int shmem_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce) {            \
    TABLE(GIO_GENERIC_REDUCE_CASE, OP) {                                                                    \
      static_assert(gio_no_such_type<T>::value, "shmem_" #OP "_reduce: not a type of this reduction");    \
      return -1;                                                                                            \
    }                                                                                                       \
  }
GIO_REDUCE_OPS(GIO_GENERIC_REDUCE, _)
GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_GENERIC_REDUCE_H)

// shmem_sum_inscan / shmem_sum_exscan (1.6) over the sum's type table, long double as above.
#define GIO_GENERIC_SCAN_H(OP, NAME, TT) GIO_CAT(GIO_GENERIC_SCAN_H_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, TT)
#define GIO_GENERIC_SCAN_H_0(OP, NAME, TT)
#define GIO_GENERIC_SCAN_H_1(OP, NAME, TT)                                                          \
  GIO_HOST_INLINE int shmem_##OP##_inscan(shmem_team_t team, TT* dest, const TT* source, size_t nelems) {   \
    return shmem_##NAME##_##OP##_inscan(team, dest, source, nelems);                                \
  }                                                                                                 \
  GIO_HOST_INLINE int shmem_##OP##_exscan(shmem_team_t team, TT* dest, const TT* source, size_t nelems) {   \
    return shmem_##NAME##_##OP##_exscan(team, dest, source, nelems);                                \
  }
#define GIO_GENERIC_SCAN_CASE_inscan_0(OP, NAME, TT) \
  if constexpr (std::is_same<T, TT>::value) return shmem_##NAME##_##OP##_inscan(team, dest, source, nelems); else
#define GIO_GENERIC_SCAN_CASE_exscan_0(OP, NAME, TT) \
  if constexpr (std::is_same<T, TT>::value) return shmem_##NAME##_##OP##_exscan(team, dest, source, nelems); else
#define GIO_GENERIC_SCAN_CASE_inscan(OP, NAME, TT) \
  GIO_CAT(GIO_GENERIC_SCAN_CASE_inscan_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, TT)
#define GIO_GENERIC_SCAN_CASE_exscan(OP, NAME, TT) \
  GIO_CAT(GIO_GENERIC_SCAN_CASE_exscan_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, TT)
#define GIO_GENERIC_SCAN_CASE_inscan_1(OP, NAME, TT)
#define GIO_GENERIC_SCAN_CASE_exscan_1(OP, NAME, TT)
#define GIO_GENERIC_SCAN_KIND(KIND, OP, TABLE)                                                            \
  template <typename T>                                                                                    \
  GIO_HOST_DEVICE_INLINE int shmem_##OP##_##KIND(shmem_team_t team, T* dest, const T* source, size_t nelems) {          \
    TABLE(GIO_GENERIC_SCAN_CASE_##KIND, OP) {                                                              \
      static_assert(gio_no_such_type<T>::value, "shmem_" #OP "_" #KIND ": not a type of this scan");      \
      return -1;                                                                                           \
    }                                                                                                      \
  }
#define GIO_GENERIC_SCAN(OP, TABLE, Y) GIO_GENERIC_SCAN_KIND(inscan, OP, TABLE) GIO_GENERIC_SCAN_KIND(exscan, OP, TABLE)
GIO_SCAN_OPS(GIO_GENERIC_SCAN, _)
GIO_SCAN_OPS(GIO_REDUCE_EACH, GIO_GENERIC_SCAN_H)
#undef GIO_GENERIC_SCAN
#undef GIO_GENERIC_SCAN_KIND
#undef GIO_GENERIC_SCAN_CASE_inscan
#undef GIO_GENERIC_SCAN_CASE_exscan
#undef GIO_GENERIC_SCAN_CASE_inscan_0
#undef GIO_GENERIC_SCAN_CASE_exscan_0
#undef GIO_GENERIC_SCAN_CASE_inscan_1
#undef GIO_GENERIC_SCAN_CASE_exscan_1
#undef GIO_GENERIC_SCAN_H
#undef GIO_GENERIC_SCAN_H_0
#undef GIO_GENERIC_SCAN_H_1

#undef GIO_GENERIC_REDUCE
#undef GIO_GENERIC_REDUCE_CASE
#undef GIO_GENERIC_REDUCE_CASE_0
#undef GIO_GENERIC_REDUCE_CASE_1
#undef GIO_GENERIC_REDUCE_H
#undef GIO_GENERIC_REDUCE_H_0
#undef GIO_GENERIC_REDUCE_H_1
#undef GIO_GENERIC_TEAM_MOVE
#undef GIO_GENERIC_TEAM_MOVE_H
#undef GIO_GENERIC_TEAM_MOVES_H
#undef GIO_GENERIC_CASE
#undef GIO_GENERIC_CASE_broadcast
#undef GIO_GENERIC_CASE_collect
#undef GIO_GENERIC_CASE_fcollect
#undef GIO_GENERIC_CASE_alltoall
#undef GIO_GENERIC_CASE_alltoalls
#undef GIO_GP_broadcast
#undef GIO_GA_broadcast
#undef GIO_GP_collect
#undef GIO_GA_collect
#undef GIO_GP_fcollect
#undef GIO_GA_fcollect
#undef GIO_GP_alltoall
#undef GIO_GA_alltoall
#undef GIO_GP_alltoalls
#undef GIO_GA_alltoalls
#endif
