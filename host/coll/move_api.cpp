// Entry points of the data-moving collectives: the team forms (typed, from the RMA type table, and
// the byte-sized *mem forms) and the 1.4 active-set forms (32- and 64-bit elements). They check
// their arguments and hand bytes to move.cpp.
#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"

using namespace gio;

namespace {

void broadcast(const char* routine, coll_over o, void* dest, const void* source, size_t nelems, size_t elem, int root) {
  runtime& r = rt_checked(routine);
  const group g = o.group_of(r, routine);
  const size_t bytes = coll_bytes(g, nelems, elem);
  coll_check_member(g, "PE_root", root);
  coll_check_sym(r, g, "dest", dest, bytes);
  coll_check_sym(r, g, "source", source, bytes);
  coll_broadcast(r, g, dest, source, bytes, root, /*root_too=*/!o.active_set);
}

void collect(const char* routine, coll_over o, void* dest, const void* source, size_t nelems, size_t elem) {
  runtime& r = rt_checked(routine);
  const group g = o.group_of(r, routine);
  const size_t bytes = coll_bytes(g, nelems, elem);
  coll_check_sym(r, g, "source", source, bytes);
  coll_check_sym(r, g, "dest", dest, bytes);  // the whole dest is checked where each block lands
  coll_collect(r, g, dest, source, bytes);
}

void fcollect(const char* routine, coll_over o, void* dest, const void* source, size_t nelems, size_t elem) {
  runtime& r = rt_checked(routine);
  const group g = o.group_of(r, routine);
  const size_t bytes = coll_bytes(g, nelems, elem);
  coll_check_sym(r, g, "source", source, bytes);
  coll_check_sym(r, g, "dest", dest, coll_bytes(g, bytes, g.size()));
  coll_fcollect(r, g, dest, source, bytes);
}

void alltoall(const char* routine, coll_over o, void* dest, const void* source, size_t nelems, size_t elem) {
  runtime& r = rt_checked(routine);
  const group g = o.group_of(r, routine);
  const size_t all = coll_bytes(g, coll_bytes(g, nelems, elem), g.size());
  coll_check_sym(r, g, "source", source, all);
  coll_check_sym(r, g, "dest", dest, all);
  coll_alltoall(r, g, dest, source, all / g.size());
}

void alltoalls(const char* routine, coll_over o, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
               size_t nelems, size_t elem) {
  runtime& r = rt_checked(routine);
  const group g = o.group_of(r, routine);
  if (dst < 1 || sst < 1)
    fatal(GIO_ERR_ARG, routine, "strides must be at least 1 (dst %td, sst %td)", dst, sst);
  // Element (n * nelems - 1) at the stride is the last one touched.
  const size_t last = coll_bytes(g, nelems, g.size());
  if (last) {
    coll_check_sym(r, g, "source", source, coll_bytes(g, coll_bytes(g, last - 1, (size_t)sst) + 1, elem));
    coll_check_sym(r, g, "dest", dest, coll_bytes(g, coll_bytes(g, last - 1, (size_t)dst) + 1, elem));
  }
  coll_alltoalls(r, g, dest, source, dst, sst, nelems, elem);
}

}  // namespace

extern "C" int gio_host_broadcastmem(shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root) {
  broadcast("shmem_broadcastmem", coll_over::team(team), dest, source, nelems, 1, PE_root);
  return 0;
}
extern "C" int gio_host_collectmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  collect("shmem_collectmem", coll_over::team(team), dest, source, nelems, 1);
  return 0;
}
extern "C" int gio_host_fcollectmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  fcollect("shmem_fcollectmem", coll_over::team(team), dest, source, nelems, 1);
  return 0;
}
extern "C" int gio_host_alltoallmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  alltoall("shmem_alltoallmem", coll_over::team(team), dest, source, nelems, 1);
  return 0;
}
extern "C" int gio_host_alltoallsmem(shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                                  size_t nelems) {
  alltoalls("shmem_alltoallsmem", coll_over::team(team), dest, source, dst, sst, nelems, 1);
  return 0;
}

#define GIO_DEF_TEAM_MOVE(NAME, T)                                                                        \
  extern "C" int gio_host_##NAME##_broadcast(shmem_team_t team, T* dest, const T* source, size_t nelems,     \
                                          int PE_root) {                                                  \
    broadcast("shmem_" #NAME "_broadcast", coll_over::team(team), dest, source, nelems, sizeof(T), PE_root);      \
    return 0;                                                                                             \
  }                                                                                                       \
  extern "C" int gio_host_##NAME##_collect(shmem_team_t team, T* dest, const T* source, size_t nelems) {     \
    collect("shmem_" #NAME "_collect", coll_over::team(team), dest, source, nelems, sizeof(T));                   \
    return 0;                                                                                             \
  }                                                                                                       \
  extern "C" int gio_host_##NAME##_fcollect(shmem_team_t team, T* dest, const T* source, size_t nelems) {    \
    fcollect("shmem_" #NAME "_fcollect", coll_over::team(team), dest, source, nelems, sizeof(T));                 \
    return 0;                                                                                             \
  }                                                                                                       \
  extern "C" int gio_host_##NAME##_alltoall(shmem_team_t team, T* dest, const T* source, size_t nelems) {    \
    alltoall("shmem_" #NAME "_alltoall", coll_over::team(team), dest, source, nelems, sizeof(T));                 \
    return 0;                                                                                             \
  }                                                                                                       \
  extern "C" int gio_host_##NAME##_alltoalls(shmem_team_t team, T* dest, const T* source, ptrdiff_t dst,     \
                                          ptrdiff_t sst, size_t nelems) {                                 \
    alltoalls("shmem_" #NAME "_alltoalls", coll_over::team(team), dest, source, dst, sst, nelems, sizeof(T));     \
    return 0;                                                                                             \
  }
GIO_RMA_TYPES(GIO_DEF_TEAM_MOVE)
GIO_RMA_HOST_TYPES(GIO_DEF_TEAM_MOVE)
#undef GIO_DEF_TEAM_MOVE

// The active-set forms, for 4- and 8-byte elements.
#define GIO_DEF_SET_MOVE(BITS)                                                                            \
  extern "C" void shmem_broadcast##BITS(void* dest, const void* source, size_t nelems, int PE_root,       \
                                        int PE_start, int logPE_stride, int PE_size, long* pSync) {       \
    broadcast("shmem_broadcast" #BITS, coll_over::set(PE_start, logPE_stride, PE_size, pSync), dest, source,     \
              nelems, BITS / 8, PE_root);                                                                 \
  }                                                                                                       \
  extern "C" void shmem_collect##BITS(void* dest, const void* source, size_t nelems, int PE_start,        \
                                      int logPE_stride, int PE_size, long* pSync) {                       \
    collect("shmem_collect" #BITS, coll_over::set(PE_start, logPE_stride, PE_size, pSync), dest, source, nelems, \
            BITS / 8);                                                                                    \
  }                                                                                                       \
  extern "C" void shmem_fcollect##BITS(void* dest, const void* source, size_t nelems, int PE_start,       \
                                       int logPE_stride, int PE_size, long* pSync) {                      \
    fcollect("shmem_fcollect" #BITS, coll_over::set(PE_start, logPE_stride, PE_size, pSync), dest, source,       \
             nelems, BITS / 8);                                                                           \
  }                                                                                                       \
  extern "C" void shmem_alltoall##BITS(void* dest, const void* source, size_t nelems, int PE_start,       \
                                       int logPE_stride, int PE_size, long* pSync) {                      \
    alltoall("shmem_alltoall" #BITS, coll_over::set(PE_start, logPE_stride, PE_size, pSync), dest, source,       \
             nelems, BITS / 8);                                                                           \
  }                                                                                                       \
  extern "C" void shmem_alltoalls##BITS(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,     \
                                        size_t nelems, int PE_start, int logPE_stride, int PE_size,       \
                                        long* pSync) {                                                    \
    alltoalls("shmem_alltoalls" #BITS, coll_over::set(PE_start, logPE_stride, PE_size, pSync), dest, source, dst, \
              sst, nelems, BITS / 8);                                                                     \
  }
GIO_DEF_SET_MOVE(32)
GIO_DEF_SET_MOVE(64)
#undef GIO_DEF_SET_MOVE
