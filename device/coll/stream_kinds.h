// What the stream collectives' launchers share (stream_launch.cpp, stream_reduce.cpp,
// stream_reduce_wg.cpp): launch shapes, the launch check, and the (kind, operation) pairs of
// runtime/coll_stream.h mapped to the element type and fold of device/coll/reduce_dev.h.
#pragma once
#include <complex>
#include <string>

#include "device/coll/reduce_dev.h"
#include "runtime/coll_stream.h"

namespace gio {
namespace stream_launch {

// Threads of a data kernel's work-group: 512 lanes with 8 (copies) or 4 (folds) 16-byte loads
// each in flight keep 64 KiB per SM on the way, more than a link's bandwidth-latency product
// needs. The one-work-group device collectives keep the work-group size their benchmarks use.
// On the host platform every lane is a fiber: fewer of them keep CI fast.
#if defined(GIO_PLATFORM_HOST)
constexpr unsigned kDataThreads = 64, kWgThreads = 64;
#else
constexpr unsigned kDataThreads = 512, kWgThreads = 256;
#endif

// nullptr, or "<what>: <the platform's error>" (one message per thread, kept until the next).
inline const char* launched(const char* what) {
  const hipError_t e = hipGetLastError();
  if (e == hipSuccess) return nullptr;
  static thread_local std::string msg;
  msg = std::string(what) + ": " + hipGetErrorString(e);
  return msg.c_str();
}

template <typename T>
struct type_tag {
  using type = T;
};

// Calls f(type_tag<T>, type_tag<Op>) for the pair's element type and fold; false for a pair no
// 1.5 routine has (the entry points never make one).
template <typename F>
bool with_pair(stream_kind k, stream_rop o, F f) {
  using namespace ::gio::dev;
  const bool bitwise = o == stream_rop::and_ || o == stream_rop::or_ || o == stream_rop::xor_;
  const bool arith = o == stream_rop::sum || o == stream_rop::prod;
  const bool minmax = o == stream_rop::max || o == stream_rop::min;
  auto minmax_ops = [&](auto tt) {
    if (o == stream_rop::max) f(tt, type_tag<rop_max>{});
    else f(tt, type_tag<rop_min>{});
  };
  auto arith_ops = [&](auto tt) {
    if (o == stream_rop::sum) f(tt, type_tag<rop_sum>{});
    else f(tt, type_tag<rop_prod>{});
  };
  auto ops = [&](auto tt) {
    if (minmax) minmax_ops(tt);
    else arith_ops(tt);
  };
  // Integers: every operation. The bitwise ones are instantiated for integers only.
  auto ints = [&](auto tt) {
    switch (o) {
      case stream_rop::and_: f(tt, type_tag<rop_and>{}); break;
      case stream_rop::or_: f(tt, type_tag<rop_or>{}); break;
      case stream_rop::xor_: f(tt, type_tag<rop_xor>{}); break;
      default: ops(tt); break;
    }
  };
  switch (k) {
    case stream_kind::u8: ints(type_tag<uint8_t>{}); return true;
    case stream_kind::u16: ints(type_tag<uint16_t>{}); return true;
    case stream_kind::u32: ints(type_tag<uint32_t>{}); return true;
    case stream_kind::u64: ints(type_tag<uint64_t>{}); return true;
    // Signed kinds exist for max and min only (the entry points map the rest to unsigned).
    case stream_kind::i8: if (minmax) minmax_ops(type_tag<int8_t>{}); return minmax;
    case stream_kind::i16: if (minmax) minmax_ops(type_tag<int16_t>{}); return minmax;
    case stream_kind::i32: if (minmax) minmax_ops(type_tag<int32_t>{}); return minmax;
    case stream_kind::i64: if (minmax) minmax_ops(type_tag<int64_t>{}); return minmax;
    case stream_kind::f32: if (!bitwise) ops(type_tag<float>{}); return !bitwise;
    case stream_kind::f64: if (!bitwise) ops(type_tag<double>{}); return !bitwise;
    case stream_kind::c32: if (arith) arith_ops(type_tag<std::complex<float>>{}); return arith;
    case stream_kind::c64: if (arith) arith_ops(type_tag<std::complex<double>>{}); return arith;
  }
  return false;
}

// The reduction launchers: the multi-work-group fold on all-p2p teams (stream_reduce.cpp), its
// push form on SHMEM_TEAM_WORLD (stream_reduce_push.cpp: the fold where the push area cannot
// serve the call), and the one-work-group device reduction, which works over every transport
// (stream_reduce_wg.cpp).
const char* reduce_fold(const stream_coll& c, hipStream_t s, unsigned groups);
const char* reduce_push(const stream_coll& c, hipStream_t s, unsigned groups);
const char* reduce_wg(const stream_coll& c, hipStream_t s);

}  // namespace stream_launch
}  // namespace gio
