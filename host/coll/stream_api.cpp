// Entry points of the stream-ordered collectives (shmemx_*_on_stream, runtime/api/coll_stream.h):
// they check the arguments here, on the host, with the routine, the PE and the value in the
// message, and hand the call to the launcher (runtime/coll_stream.h), which enqueues its kernels.
// The typed forms come from the type tables, as the host collectives' do.
#include <complex>
#include <type_traits>

#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"
#include "runtime/coll_stream.h"

using namespace gio;

namespace {

// Unlike the host collectives, the program's globals and the default heap are no buffer here: the
// kernels reach members' memory through the mapped GPU heaps only (their operands lie in the GPU
// heap, as every device routine's do).
void check_heap(runtime& r, const group& g, const char* name, const void* p, size_t bytes) {
  const uint8_t* a = (const uint8_t*)p;
  if (bytes && in_cpu_heap(r, p))
    fatal(GIO_ERR_ARG, g.routine, "%s [%p, +%zu bytes) is in the default heap (shmem_malloc): a collective on a "
          "stream runs in kernels, whose buffers lie in the GPU heap [%p, %p) (shmemg_malloc)", name, p, bytes,
          (void*)(r.heap + GIO_HEAP_RESERVED), (void*)(r.heap + r.heap_size));
  if (bytes && !(a >= r.heap + GIO_HEAP_RESERVED && a < r.heap + r.heap_size &&
                 bytes <= (size_t)(r.heap + r.heap_size - a)))
    fatal(GIO_ERR_ARG, g.routine, "%s [%p, +%zu bytes) is not within the symmetric heap [%p, %p)", name, p, bytes,
          (void*)(r.heap + GIO_HEAP_RESERVED), (void*)(r.heap + r.heap_size));
}

void check_apart(const group& g, const void* dest, size_t dbytes, const void* source, size_t sbytes) {
  const uint8_t *d = (const uint8_t*)dest, *s = (const uint8_t*)source;
  if (dbytes && sbytes && d < s + sbytes && s < d + dbytes)
    fatal(GIO_ERR_ARG, g.routine, "dest [%p, +%zu bytes) and source [%p, +%zu bytes) overlap", dest, dbytes, source,
          sbytes);
}

// The call's team, its size and how it moves data. `per_member`: the bytes one member's LL message
// to another would carry, for the same test the device collectives make (device/coll/ll.h).
stream_coll start(runtime& r, const group& g, shmem_team_t team, stream_op op, size_t per_member) {
  stream_coll c;
  c.op = op;
  c.team = gio_team_slot(team);  // a live team's: team_group checked it
  c.n_pes = g.size();
  c.all_p2p = group_all_p2p(r, g.members);
  c.small = gio_team_ll_fits(c.all_p2p, g.size(), team_ll_max(r), per_member);
  c.work_groups = (unsigned)r.cfg.GIO_COLL_WORK_GROUPS;
  return c;
}

void launch(const group& g, const stream_coll& c, gio_stream_t stream) {
  if (const char* err = stream_coll_launch(c, (void*)stream)) fatal(GIO_ERR_PLATFORM, g.routine, "%s", err);
}

int sync(const char* routine, shmem_team_t team, stream_op op, gio_stream_t stream) {
  runtime& r = rt_checked(routine);
  const group g = team_group(r, routine, team);
  launch(g, start(r, g, team, op, 0), stream);
  return 0;
}

int broadcast(const char* routine, shmem_team_t team, void* dest, const void* source, size_t nelems, size_t elem,
              int root, gio_stream_t stream) {
  runtime& r = rt_checked(routine);
  const group g = team_group(r, routine, team);
  const size_t bytes = coll_bytes(g, nelems, elem);
  coll_check_member(g, "PE_root", root);
  check_heap(r, g, "dest", dest, bytes);
  check_heap(r, g, "source", source, bytes);
  if (dest != source) check_apart(g, dest, bytes, source, bytes);
  if (!bytes) return 0;  // nothing moves: no member waits for another
  stream_coll c = start(r, g, team, stream_op::broadcast, bytes);
  c.dest = dest, c.source = source, c.bytes = bytes, c.root = root;
  launch(g, c, stream);
  return 0;
}

// fcollect: `bytes` of source to block `me` of every dest; alltoall: n blocks each way.
int move(const char* routine, stream_op op, shmem_team_t team, void* dest, const void* source, size_t nelems,
         size_t elem, gio_stream_t stream) {
  runtime& r = rt_checked(routine);
  const group g = team_group(r, routine, team);
  const size_t bytes = coll_bytes(g, nelems, elem), all = coll_bytes(g, bytes, (size_t)g.size());
  const size_t sbytes = op == stream_op::fcollect ? bytes : all;
  check_heap(r, g, "source", source, sbytes);
  check_heap(r, g, "dest", dest, all);
  check_apart(g, dest, all, source, sbytes);
  if (!bytes) return 0;
  stream_coll c = start(r, g, team, op, bytes);
  c.dest = dest, c.source = source, c.bytes = bytes;
  launch(g, c, stream);
  return 0;
}

// GIO_COLL_REDUCE: whether a reduction past LL on an all-p2p team may push. auto pushes on 3 or
// more members: at 4 H200s the pull reached 85 % of NCCL's busbw at 256 MiB, and at 2 it already
// beat NCCL (gio-bench coll --scope stream against gio-bench-nccl). Every member decides alike (the same call, the same
// settings), so every member's kernel is the same kind and takes the same call number.
void push_or_pull(runtime& r, shmem_team_t team, stream_coll& c) {
  coll_state& cs = *r.coll;
  const std::string& mode = r.cfg.GIO_COLL_REDUCE;
  if (!c.all_p2p || c.small || team != SHMEM_TEAM_WORLD || !cs.push_area || c.n_pes > kPushMaxPes) return;
  if (mode == "pull" || (mode == "auto" && c.n_pes < 3)) return;
  c.push = true;
  c.push_area = cs.push_area;
  c.push_scratch = cs.push_scratch;
  c.push_seq = ++cs.push_seq;
}

// The kind the kernels fold T as: max and min need the sign, the other operations only the size.
template <typename T>
stream_kind kind_of(stream_rop op) {
  if (std::is_same<T, float>::value) return stream_kind::f32;
  if (std::is_same<T, double>::value) return stream_kind::f64;
  if (std::is_same<T, std::complex<float>>::value) return stream_kind::c32;
  if (std::is_same<T, std::complex<double>>::value) return stream_kind::c64;
  const bool sign = std::is_signed<T>::value && (op == stream_rop::max || op == stream_rop::min);
  const int base = sign ? (int)stream_kind::i8 : (int)stream_kind::u8;
  return (stream_kind)(base + (sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3));
}

template <typename T>
int reduce(const char* routine, stream_rop op, shmem_team_t team, T* dest, const T* source, size_t nreduce,
           gio_stream_t stream) {
  static_assert(sizeof(T) <= 16, "a reduction element fits one vector");
  runtime& r = rt_checked(routine);
  const group g = team_group(r, routine, team);
  const size_t bytes = coll_bytes(g, nreduce, sizeof(T));
  check_heap(r, g, "dest", dest, bytes);
  check_heap(r, g, "source", source, bytes);
  if (dest != source) check_apart(g, dest, bytes, source, bytes);
  if (!bytes) return 0;
  stream_coll c = start(r, g, team, stream_op::reduce, bytes);
  c.dest = dest, c.source = source, c.bytes = bytes, c.nreduce = nreduce;
  c.kind = kind_of<T>(op);
  c.rop = op;
  push_or_pull(r, team, c);
  launch(g, c, stream);
  return 0;
}

}  // namespace

extern "C" int shmemx_barrier_on_stream(shmem_team_t team, gio_stream_t stream) {
  return sync("shmemx_barrier_on_stream", team, stream_op::barrier, stream);
}
extern "C" int shmemx_team_sync_on_stream(shmem_team_t team, gio_stream_t stream) {
  return sync("shmemx_team_sync_on_stream", team, stream_op::sync, stream);
}
extern "C" void shmemx_barrier_all_on_stream(gio_stream_t stream) {
  sync("shmemx_barrier_all_on_stream", SHMEM_TEAM_WORLD, stream_op::barrier, stream);
}
extern "C" void shmemx_sync_all_on_stream(gio_stream_t stream) {
  sync("shmemx_sync_all_on_stream", SHMEM_TEAM_WORLD, stream_op::sync, stream);
}
extern "C" int shmemx_broadcastmem_on_stream(shmem_team_t team, void* dest, const void* source, size_t nelems,
                                             int PE_root, gio_stream_t stream) {
  return broadcast("shmemx_broadcastmem_on_stream", team, dest, source, nelems, 1, PE_root, stream);
}
extern "C" int shmemx_fcollectmem_on_stream(shmem_team_t team, void* dest, const void* source, size_t nelems,
                                            gio_stream_t stream) {
  return move("shmemx_fcollectmem_on_stream", stream_op::fcollect, team, dest, source, nelems, 1, stream);
}
extern "C" int shmemx_alltoallmem_on_stream(shmem_team_t team, void* dest, const void* source, size_t nelems,
                                            gio_stream_t stream) {
  return move("shmemx_alltoallmem_on_stream", stream_op::alltoall, team, dest, source, nelems, 1, stream);
}

#define GIO_DEF_STREAM_MOVE(NAME, T)                                                                        \
  extern "C" int shmemx_##NAME##_broadcast_on_stream(shmem_team_t team, T* dest, const T* source,            \
                                                     size_t nelems, int PE_root, gio_stream_t stream) {     \
    return broadcast("shmemx_" #NAME "_broadcast_on_stream", team, dest, source, nelems, sizeof(T), PE_root, \
                     stream);                                                                               \
  }                                                                                                         \
  extern "C" int shmemx_##NAME##_fcollect_on_stream(shmem_team_t team, T* dest, const T* source,             \
                                                    size_t nelems, gio_stream_t stream) {                   \
    return move("shmemx_" #NAME "_fcollect_on_stream", stream_op::fcollect, team, dest, source, nelems,      \
                sizeof(T), stream);                                                                         \
  }                                                                                                         \
  extern "C" int shmemx_##NAME##_alltoall_on_stream(shmem_team_t team, T* dest, const T* source,             \
                                                    size_t nelems, gio_stream_t stream) {                   \
    return move("shmemx_" #NAME "_alltoall_on_stream", stream_op::alltoall, team, dest, source, nelems,      \
                sizeof(T), stream);                                                                         \
  }
GIO_RMA_TYPES(GIO_DEF_STREAM_MOVE)
#undef GIO_DEF_STREAM_MOVE

#define GIO_STREAM_ROP_and stream_rop::and_
#define GIO_STREAM_ROP_or stream_rop::or_
#define GIO_STREAM_ROP_xor stream_rop::xor_
#define GIO_STREAM_ROP_max stream_rop::max
#define GIO_STREAM_ROP_min stream_rop::min
#define GIO_STREAM_ROP_sum stream_rop::sum
#define GIO_STREAM_ROP_prod stream_rop::prod
#define GIO_STREAM_REDUCE_ITEM(OP, NAME, T)                                                                 \
  extern "C" int shmemx_##NAME##_##OP##_reduce_on_stream(shmem_team_t team, T* dest, const T* source,        \
                                                         size_t nreduce, gio_stream_t stream) {             \
    return reduce<T>("shmemx_" #NAME "_" #OP "_reduce_on_stream", GIO_STREAM_ROP_##OP, team, dest, source,   \
                     nreduce, stream);                                                                      \
  }
GIO_STREAM_REDUCE_TABLE
#undef GIO_STREAM_REDUCE_ITEM
