// Teams and collectives (OpenSHMEM 1.5 sections 9.4 and 9.9), host code and kernels. The
// deprecated active-set forms of 1.4 (PE_start, logPE_stride, PE_size, pSync) are host-only: every
// OSU OpenSHMEM benchmark still calls them.
//
// A team handle is an index into the team table each PE keeps in its symmetric heap
// (runtime/team.h), so a kernel finds a team's state from the handle alone. Teams are created and
// destroyed on the host; queries, syncs and collectives work in kernels too: the standard names at
// thread scope (one thread per PE calls), shmemx_<name>_wg and shmemx_<name>_wave with a whole
// work-group or wave per PE. One collective per team at a time on a PE; collectives on different
// teams may run at once (from different work-groups, say). Algorithms: device/coll/.
#pragma once
#include <complex>

#include "device/dispatch/dispatch.h"
#include "runtime/api/types.h"
#include "device/coll/reduce_dev.h"
#include "device/coll/scan_dev.h"
#include "runtime/api/coll_host.h"  // libgio's halves of the routines below


// SHMEM_SYNC_VALUE and the SHMEM_*_SYNC_SIZE constants: runtime/api/base.h.

extern "C" {
// Team management (host only: creation and destruction are collectives of the host).
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config,
                        long xaxis_mask, shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config,
                        long yaxis_mask, shmem_team_t* yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team);

// Active-set forms (deprecated in 1.5). The PEs PE_start + i * 2^logPE_stride, i < PE_size, call
// them together with the same pSync.
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync);
void shmem_broadcast32(void* dest, const void* source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_broadcast64(void* dest, const void* source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_collect32(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                     long* pSync);
void shmem_collect64(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                     long* pSync);
void shmem_fcollect32(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long* pSync);
void shmem_fcollect64(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long* pSync);
void shmem_alltoall32(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long* pSync);
void shmem_alltoall64(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long* pSync);
void shmem_alltoalls32(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
void shmem_alltoalls64(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long* pSync);
#define GIO_DECL_TO_ALL(OP, NAME, T)                                                                 \
  void shmem_##NAME##_##OP##_to_all(T* dest, const T* source, int nreduce, int PE_start, int logPE_stride, \
                                    int PE_size, T* pWrk, long* pSync);
GIO_TO_ALL_OPS(GIO_REDUCE_EACH, GIO_DECL_TO_ALL)
#undef GIO_DECL_TO_ALL

// shmem_sync has a team form (1.5) and an active-set form (1.4); C linkage allows one of them.
void gio_host_sync_active_set(int PE_start, int logPE_stride, int PE_size, long* pSync);
}

GIO_HOST_DEVICE_INLINE int shmem_team_my_pe(shmem_team_t team) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::team_my_pe(team), return gio_host_team_my_pe(team));
}
GIO_HOST_DEVICE_INLINE int shmem_team_n_pes(shmem_team_t team) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::team_n_pes(team), return gio_host_team_n_pes(team));
}
GIO_HOST_DEVICE_INLINE int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::team_translate_pe(src_team, src_pe, dest_team),
               return gio_host_team_translate_pe(src_team, src_pe, dest_team));
}

// The collectives at thread scope (host code, or one thread per PE in a kernel). In place when
// dest == source (reductions, and a broadcast's root); otherwise the two must not overlap.
#define GIO_TS ::gio::dev::scope_thread
template <typename GIO_T_ = void> GIO_HOST_DEVICE_INLINE int shmem_team_sync(shmem_team_t team) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::team_sync<GIO_TS>("shmem_team_sync", team), return gio_host_team_sync(team));
}
template <typename GIO_T_ = void> GIO_HOST_DEVICE_INLINE int shmem_sync(shmem_team_t team) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::team_sync<GIO_TS>("shmem_sync", team), return gio_host_team_sync(team));
}
template <typename GIO_T_ = void> GIO_HOST_DEVICE_INLINE int shmem_broadcastmem(shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::broadcast<GIO_TS>("shmem_broadcastmem", team, dest, source, nelems, 1, PE_root),
               return gio_host_broadcastmem(team, dest, source, nelems, PE_root));
}
template <typename GIO_T_ = void> GIO_HOST_DEVICE_INLINE int shmem_collectmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::collect<GIO_TS>("shmem_collectmem", team, dest, source, nelems, 1),
               return gio_host_collectmem(team, dest, source, nelems));
}
template <typename GIO_T_ = void> GIO_HOST_DEVICE_INLINE int shmem_fcollectmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::fcollect<GIO_TS>("shmem_fcollectmem", team, dest, source, nelems, 1),
               return gio_host_fcollectmem(team, dest, source, nelems));
}
template <typename GIO_T_ = void> GIO_HOST_DEVICE_INLINE int shmem_alltoallmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::alltoall<GIO_TS>("shmem_alltoallmem", team, dest, source, nelems, 1),
               return gio_host_alltoallmem(team, dest, source, nelems));
}
template <typename GIO_T_ = void> GIO_HOST_DEVICE_INLINE int shmem_alltoallsmem(shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                                size_t nelems) {
  GIO_DISPATCH_HOST_DEVICE(return ::gio::dev::alltoalls<GIO_TS>("shmem_alltoallsmem", team, dest, source, dst, sst, nelems, 1),
               return gio_host_alltoallsmem(team, dest, source, dst, sst, nelems));
}
// shmem_TYPE_{collect,fcollect,alltoall}, which share their parameters, and the two others below.
#define GIO_DEF_TEAM_MOVE_N(W, NAME, T, OP)                                                                        \
  template <typename GIO_T_ = void>                                                                                \
  GIO_##W##_INLINE int shmem_##NAME##_##OP(shmem_team_t team, T* dest, const T* source, size_t nelems) {                 \
    GIO_DISPATCH_##W(return ::gio::dev::OP<GIO_TS>("shmem_" #NAME "_" #OP, team, dest, source, nelems, sizeof(T)), \
                     return gio_host_##NAME##_##OP(team, dest, source, nelems));                                   \
  }
// shmem_TYPE_{broadcast,collect,fcollect,alltoall,alltoalls} (W: device/platform/forms.h)
#define GIO_DEF_TEAM_MOVE(W, NAME, T)                                                                                \
  template <typename GIO_T_ = void>                                                                                  \
  GIO_##W##_INLINE int shmem_##NAME##_broadcast(shmem_team_t team, T* dest, const T* source, size_t nelems, int PE_root) { \
    GIO_DISPATCH_##W(return ::gio::dev::broadcast<GIO_TS>("shmem_" #NAME "_broadcast", team, dest, source, nelems,   \
                                                          sizeof(T), PE_root),                                       \
                     return gio_host_##NAME##_broadcast(team, dest, source, nelems, PE_root));                       \
  }                                                                                                                  \
  GIO_DEF_TEAM_MOVE_N(W, NAME, T, collect)                                                                           \
  GIO_DEF_TEAM_MOVE_N(W, NAME, T, fcollect)                                                                          \
  GIO_DEF_TEAM_MOVE_N(W, NAME, T, alltoall)                                                                          \
  template <typename GIO_T_ = void>                                                                                  \
  GIO_##W##_INLINE int shmem_##NAME##_alltoalls(shmem_team_t team, T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, \
                                          size_t nelems) {                                                           \
    GIO_DISPATCH_##W(return ::gio::dev::alltoalls<GIO_TS>("shmem_" #NAME "_alltoalls", team, dest, source, dst,      \
                                                          sst, nelems, sizeof(T)),                                   \
                     return gio_host_##NAME##_alltoalls(team, dest, source, dst, sst, nelems));                      \
  }
#define GIO_DEF_TEAM_MOVE_HOST_DEVICE(NAME, T) GIO_DEF_TEAM_MOVE(HOST_DEVICE, NAME, T)
#define GIO_DEF_TEAM_MOVE_HOST(NAME, T) GIO_DEF_TEAM_MOVE(HOST, NAME, T)
GIO_RMA_TYPES(GIO_DEF_TEAM_MOVE_HOST_DEVICE)
GIO_RMA_HOST_TYPES(GIO_DEF_TEAM_MOVE_HOST)
#undef GIO_DEF_TEAM_MOVE_HOST_DEVICE
#undef GIO_DEF_TEAM_MOVE_HOST
#undef GIO_DEF_TEAM_MOVE
#undef GIO_DEF_TEAM_MOVE_N
// long double has no GPU form (nvcc makes it double in device code): its reductions are host-only,
// picked out of the type table by name (GIO_IS_LONGDOUBLE(NAME) is 1 for longdouble, else 0).
#define GIO_LD_PROBE_longdouble ~, 1
#define GIO_SECOND_(a, b, ...) b
#define GIO_SECOND(...) GIO_SECOND_(__VA_ARGS__)
#define GIO_IS_LONGDOUBLE(NAME) GIO_SECOND(GIO_LD_PROBE_##NAME, 0, ~)
#define GIO_CAT_(a, b) a##b
#define GIO_CAT(a, b) GIO_CAT_(a, b)
#define GIO_DEF_REDUCE_0(OP, NAME, T)                                                                       \
  template <typename GIO_T_ = void> GIO_HOST_DEVICE_INLINE int shmem_##NAME##_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce) {   \
    GIO_DISPATCH_HOST_DEVICE(return (::gio::dev::reduce<GIO_TS, T, ::gio::dev::rop_##OP>("shmem_" #NAME "_" #OP "_reduce", \
                                                                             team, dest, source, nreduce)), \
                 return gio_host_##NAME##_##OP##_reduce(team, dest, source, nreduce));                       \
  }
#define GIO_DEF_REDUCE_1(OP, NAME, T)                                                                       \
  inline int shmem_##NAME##_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce) {     \
    return gio_host_##NAME##_##OP##_reduce(team, dest, source, nreduce);                                    \
  }
#define GIO_DEF_REDUCE(OP, NAME, T) GIO_CAT(GIO_DEF_REDUCE_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, T)
GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_DEF_REDUCE)
#undef GIO_DEF_REDUCE
#undef GIO_DEF_REDUCE_0
#undef GIO_DEF_REDUCE_1

// C++ written with C's complex types (<complex.h>'s `double _Complex`, as Sandia OpenSHMEM declares
// these routines in C++ too) reaches the same routines: a _Complex number and a std::complex have
// one layout, the real part then the imaginary. Host code; g++, clang++ and nvcc know _Complex in
// C++ as an extension.
#if defined(__GNUC__)
#define GIO_DEF_C_COMPLEX(NAME, C, OP)                                                                       \
  inline int shmem_##NAME##_##OP##_reduce(shmem_team_t team, C _Complex* dest, const C _Complex* source,     \
                                          size_t nreduce) {                                                  \
    return shmem_##NAME##_##OP##_reduce(team, (std::complex<C>*)dest, (const std::complex<C>*)source, nreduce); \
  }                                                                                                          \
  inline void shmem_##NAME##_##OP##_to_all(C _Complex* dest, const C _Complex* source, int nreduce, int PE_start, \
                                           int logPE_stride, int PE_size, C _Complex* pWrk, long* pSync) {   \
    shmem_##NAME##_##OP##_to_all((std::complex<C>*)dest, (const std::complex<C>*)source, nreduce, PE_start,  \
                                 logPE_stride, PE_size, (std::complex<C>*)pWrk, pSync);                      \
  }
GIO_DEF_C_COMPLEX(complexd, double, sum)
GIO_DEF_C_COMPLEX(complexd, double, prod)
GIO_DEF_C_COMPLEX(complexf, float, sum)
GIO_DEF_C_COMPLEX(complexf, float, prod)
#undef GIO_DEF_C_COMPLEX
#endif

// OpenSHMEM 1.6 team scans: shmem_TYPE_sum_inscan and shmem_TYPE_sum_exscan (device/coll/scan_dev.h).
#define GIO_DEF_SCAN_FORM_0(OP, NAME, T, KIND, INCL)                                                       \
  template <typename GIO_T_ = void>                                                                        \
  GIO_HOST_DEVICE_INLINE int shmem_##NAME##_##OP##_##KIND(shmem_team_t team, T* dest, const T* source, size_t nelems) {  \
    GIO_DISPATCH_HOST_DEVICE(return (::gio::dev::scan<GIO_TS, T, ::gio::dev::rop_##OP, INCL>(                          \
                     "shmem_" #NAME "_" #OP "_" #KIND, team, dest, source, nelems)),                       \
                 return gio_host_##NAME##_##OP##_##KIND(team, dest, source, nelems));                      \
  }
#define GIO_DEF_SCAN_FORM_1(OP, NAME, T, KIND, INCL)                                                       \
  inline int shmem_##NAME##_##OP##_##KIND(shmem_team_t team, T* dest, const T* source, size_t nelems) {     \
    return gio_host_##NAME##_##OP##_##KIND(team, dest, source, nelems);                                    \
  }
#define GIO_DEF_SCAN(OP, NAME, T)                                                   \
  GIO_CAT(GIO_DEF_SCAN_FORM_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, T, inscan, true)   \
  GIO_CAT(GIO_DEF_SCAN_FORM_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, T, exscan, false)
GIO_SCAN_OPS(GIO_REDUCE_EACH, GIO_DEF_SCAN)
#undef GIO_DEF_SCAN
#undef GIO_DEF_SCAN_FORM_0
#undef GIO_DEF_SCAN_FORM_1

// The cooperative forms (kernels only): every thread of the work-group (_wg) or wave (_wave) calls
// with the same arguments, and the lanes share the copies and the LL words.
#if GIO_KERNEL_COMPILER
#define GIO_DEF_COLL_SCOPED(SFX, S)                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_team_sync##SFX(shmem_team_t team) {                                                    \
    return ::gio::dev::team_sync<S>("shmemx_team_sync" #SFX, team);                                         \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_sync##SFX(shmem_team_t team) { return ::gio::dev::team_sync<S>("shmemx_sync" #SFX, team); } \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_broadcastmem##SFX(shmem_team_t team, void* dest, const void* source, size_t nelems,    \
                                       int PE_root) {                                                       \
    return ::gio::dev::broadcast<S>("shmemx_broadcastmem" #SFX, team, dest, source, nelems, 1, PE_root);   \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_collectmem##SFX(shmem_team_t team, void* dest, const void* source, size_t nelems) {   \
    return ::gio::dev::collect<S>("shmemx_collectmem" #SFX, team, dest, source, nelems, 1);                \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_fcollectmem##SFX(shmem_team_t team, void* dest, const void* source, size_t nelems) {  \
    return ::gio::dev::fcollect<S>("shmemx_fcollectmem" #SFX, team, dest, source, nelems, 1);              \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_alltoallmem##SFX(shmem_team_t team, void* dest, const void* source, size_t nelems) {  \
    return ::gio::dev::alltoall<S>("shmemx_alltoallmem" #SFX, team, dest, source, nelems, 1);              \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_alltoallsmem##SFX(shmem_team_t team, void* dest, const void* source, ptrdiff_t dst,   \
                                       ptrdiff_t sst, size_t nelems) {                                      \
    return ::gio::dev::alltoalls<S>("shmemx_alltoallsmem" #SFX, team, dest, source, dst, sst, nelems, 1);  \
  }
GIO_DEF_COLL_SCOPED(_wg, ::gio::dev::scope_wg)
GIO_DEF_COLL_SCOPED(_wave, ::gio::dev::scope_wave)
#undef GIO_DEF_COLL_SCOPED

#define GIO_DEF_TEAM_MOVE_SCOPED(NAME, T, SFX, S)                                                           \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_##NAME##_broadcast##SFX(shmem_team_t team, T* dest, const T* source, size_t nelems,  \
                                             int PE_root) {                                                 \
    return ::gio::dev::broadcast<S>("shmemx_" #NAME "_broadcast" #SFX, team, dest, source, nelems, sizeof(T), \
                                    PE_root);                                                               \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_##NAME##_collect##SFX(shmem_team_t team, T* dest, const T* source, size_t nelems) {  \
    return ::gio::dev::collect<S>("shmemx_" #NAME "_collect" #SFX, team, dest, source, nelems, sizeof(T));  \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_##NAME##_fcollect##SFX(shmem_team_t team, T* dest, const T* source, size_t nelems) { \
    return ::gio::dev::fcollect<S>("shmemx_" #NAME "_fcollect" #SFX, team, dest, source, nelems, sizeof(T)); \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_##NAME##_alltoall##SFX(shmem_team_t team, T* dest, const T* source, size_t nelems) { \
    return ::gio::dev::alltoall<S>("shmemx_" #NAME "_alltoall" #SFX, team, dest, source, nelems, sizeof(T)); \
  }                                                                                                         \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_##NAME##_alltoalls##SFX(shmem_team_t team, T* dest, const T* source, ptrdiff_t dst,  \
                                             ptrdiff_t sst, size_t nelems) {                                \
    return ::gio::dev::alltoalls<S>("shmemx_" #NAME "_alltoalls" #SFX, team, dest, source, dst, sst, nelems, \
                                    sizeof(T));                                                             \
  }
#define GIO_DEF_TEAM_MOVE_WG(NAME, T) GIO_DEF_TEAM_MOVE_SCOPED(NAME, T, _wg, ::gio::dev::scope_wg)
#define GIO_DEF_TEAM_MOVE_WAVE(NAME, T) GIO_DEF_TEAM_MOVE_SCOPED(NAME, T, _wave, ::gio::dev::scope_wave)
GIO_RMA_TYPES(GIO_DEF_TEAM_MOVE_WG)
GIO_RMA_TYPES(GIO_DEF_TEAM_MOVE_WAVE)
#undef GIO_DEF_TEAM_MOVE_WG
#undef GIO_DEF_TEAM_MOVE_WAVE
#undef GIO_DEF_TEAM_MOVE_SCOPED

#define GIO_DEF_REDUCE_SCOPED_1(OP, NAME, T, SFX, S)
#define GIO_DEF_REDUCE_SCOPED_0(OP, NAME, T, SFX, S)                                                        \
  template <typename GIO_T_ = void> GIO_DEVICE_INLINE int shmemx_##NAME##_##OP##_reduce##SFX(shmem_team_t team, T* dest, const T* source, size_t nreduce) { \
    return ::gio::dev::reduce<S, T, ::gio::dev::rop_##OP>("shmemx_" #NAME "_" #OP "_reduce" #SFX, team, dest, \
                                                         source, nreduce);                                 \
  }
#define GIO_DEF_REDUCE_SCOPED(OP, NAME, T, SFX, S) \
  GIO_CAT(GIO_DEF_REDUCE_SCOPED_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, T, SFX, S)
#define GIO_DEF_REDUCE_WG(OP, NAME, T) GIO_DEF_REDUCE_SCOPED(OP, NAME, T, _wg, ::gio::dev::scope_wg)
#define GIO_DEF_REDUCE_WAVE(OP, NAME, T) GIO_DEF_REDUCE_SCOPED(OP, NAME, T, _wave, ::gio::dev::scope_wave)
GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_DEF_REDUCE_WG)
GIO_REDUCE_OPS(GIO_REDUCE_EACH, GIO_DEF_REDUCE_WAVE)
#undef GIO_DEF_REDUCE_WG
#undef GIO_DEF_REDUCE_WAVE
#undef GIO_DEF_REDUCE_SCOPED
#undef GIO_DEF_REDUCE_SCOPED_0
#undef GIO_DEF_REDUCE_SCOPED_1

#define GIO_DEF_SCAN_SCOPED_1(OP, NAME, T, SFX, S)
#define GIO_DEF_SCAN_SCOPED_0(OP, NAME, T, SFX, S)                                                          \
  template <typename GIO_T_ = void>                                                                         \
  GIO_DEVICE_INLINE int shmemx_##NAME##_##OP##_inscan##SFX(shmem_team_t team, T* dest, const T* source, size_t nelems) { \
    return ::gio::dev::scan<S, T, ::gio::dev::rop_##OP, true>("shmemx_" #NAME "_" #OP "_inscan" #SFX, team,  \
                                                              dest, source, nelems);                        \
  }                                                                                                         \
  template <typename GIO_T_ = void>                                                                         \
  GIO_DEVICE_INLINE int shmemx_##NAME##_##OP##_exscan##SFX(shmem_team_t team, T* dest, const T* source, size_t nelems) { \
    return ::gio::dev::scan<S, T, ::gio::dev::rop_##OP, false>("shmemx_" #NAME "_" #OP "_exscan" #SFX, team, \
                                                               dest, source, nelems);                       \
  }
#define GIO_DEF_SCAN_SCOPED(OP, NAME, T, SFX, S) \
  GIO_CAT(GIO_DEF_SCAN_SCOPED_, GIO_IS_LONGDOUBLE(NAME))(OP, NAME, T, SFX, S)
#define GIO_DEF_SCAN_WG(OP, NAME, T) GIO_DEF_SCAN_SCOPED(OP, NAME, T, _wg, ::gio::dev::scope_wg)
#define GIO_DEF_SCAN_WAVE(OP, NAME, T) GIO_DEF_SCAN_SCOPED(OP, NAME, T, _wave, ::gio::dev::scope_wave)
GIO_SCAN_OPS(GIO_REDUCE_EACH, GIO_DEF_SCAN_WG)
GIO_SCAN_OPS(GIO_REDUCE_EACH, GIO_DEF_SCAN_WAVE)
#undef GIO_DEF_SCAN_WG
#undef GIO_DEF_SCAN_WAVE
#undef GIO_DEF_SCAN_SCOPED
#undef GIO_DEF_SCAN_SCOPED_0
#undef GIO_DEF_SCAN_SCOPED_1
#endif
#undef GIO_TS
inline void shmem_sync(int PE_start, int logPE_stride, int PE_size, long* pSync) {
  gio_host_sync_active_set(PE_start, logPE_stride, PE_size, pSync);
}
