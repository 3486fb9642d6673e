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

#define GIO_GENERIC_TEAM_MOVE(ROUTINE, PARAMS)                                                               \
  template <typename T>                                                                                     \
  GIO_HDFN int shmem_##ROUTINE PARAMS {                                                                       \
    GIO_RMA_TYPES(GIO_GENERIC_CASE_##ROUTINE) GIO_RMA_HOST_TYPES(GIO_GENERIC_CASE_##ROUTINE) {              \
      static_assert(gio_no_such_type<T>::value, "shmem_" #ROUTINE ": not a standard RMA type");            \
      return -1;                                                                                            \
    }                                                                                                       \
  }
#define GIO_GENERIC_CASE(NAME, TT, ROUTINE, ARGS) \
  if constexpr (std::is_same<T, TT>::value) return shmem_##NAME##_##ROUTINE ARGS; else
#define GIO_GENERIC_CASE_broadcast(NAME, TT) GIO_GENERIC_CASE(NAME, TT, broadcast, (team, dest, source, nelems, PE_root))
#define GIO_GENERIC_CASE_collect(NAME, TT) GIO_GENERIC_CASE(NAME, TT, collect, (team, dest, source, nelems))
#define GIO_GENERIC_CASE_fcollect(NAME, TT) GIO_GENERIC_CASE(NAME, TT, fcollect, (team, dest, source, nelems))
#define GIO_GENERIC_CASE_alltoall(NAME, TT) GIO_GENERIC_CASE(NAME, TT, alltoall, (team, dest, source, nelems))
#define GIO_GENERIC_CASE_alltoalls(NAME, TT) \
  GIO_GENERIC_CASE(NAME, TT, alltoalls, (team, dest, source, dst, sst, nelems))

GIO_GENERIC_TEAM_MOVE(broadcast, (shmem_team_t team, T* dest, const T* source, size_t nelems, int PE_root))
GIO_GENERIC_TEAM_MOVE(collect, (shmem_team_t team, T* dest, const T* source, size_t nelems))
GIO_GENERIC_TEAM_MOVE(fcollect, (shmem_team_t team, T* dest, const T* source, size_t nelems))
GIO_GENERIC_TEAM_MOVE(alltoall, (shmem_team_t team, T* dest, const T* source, size_t nelems))
GIO_GENERIC_TEAM_MOVE(alltoalls,
                      (shmem_team_t team, T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems))

// shmem_<op>_reduce(team, dest, source, nreduce) over the op's own type table.
#define GIO_GENERIC_REDUCE_CASE(OP, NAME, TT) \
  if constexpr (std::is_same<T, TT>::value) return shmem_##NAME##_##OP##_reduce(team, dest, source, nreduce); else
#define GIO_GENERIC_REDUCE(OP, TABLE, Y)                                                                    \
  template <typename T>                                                                                     \
  GIO_HDFN int shmem_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce) {            \
    TABLE(GIO_GENERIC_REDUCE_CASE, OP) {                                                                    \
      static_assert(gio_no_such_type<T>::value, "shmem_" #OP "_reduce: not a type of this reduction");    \
      return -1;                                                                                            \
    }                                                                                                       \
  }
GIO_REDUCE_OPS(GIO_GENERIC_REDUCE, _)

#undef GIO_GENERIC_REDUCE
#undef GIO_GENERIC_REDUCE_CASE
#undef GIO_GENERIC_TEAM_MOVE
#undef GIO_GENERIC_CASE
#undef GIO_GENERIC_CASE_broadcast
#undef GIO_GENERIC_CASE_collect
#undef GIO_GENERIC_CASE_fcollect
#undef GIO_GENERIC_CASE_alltoall
#undef GIO_GENERIC_CASE_alltoalls
#endif
