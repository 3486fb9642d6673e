// The p2p transport's copy loops: loads and stores by the lanes of a scope (scope.h), with the
// widest access both pointers' alignment allows. Also used by gda to stage local buffers through a
// queue's bounce buffer (device/gda/gda_ops.h): that copy is a local load/store copy too.
#pragma once
#include "device/core/scope.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

struct word16 {
  struct alignas(16) type { unsigned long long a, b; };
  static constexpr size_t align = 16;
};
struct word8 {
  typedef unsigned long long type;
  static constexpr size_t align = 8;
};
struct word4 {
  typedef unsigned int type;
  static constexpr size_t align = 4;
};
struct word1 {
  typedef uint8_t type;
  static constexpr size_t align = 1;
};

// A few bytes (a head up to word alignment, a tail, a whole small message) with the widest store
// d's alignment and the count allow, up to M bytes (s shares d's alignment modulo M: the caller
// checked). Byte stores would make an 8-byte put eight separate remote writes.
template <size_t M>
GIO_DEVICE_INLINE void copy_small(uint8_t* d, const uint8_t* s, size_t n) {
  while (n) {
    const uintptr_t a = (uintptr_t)d;
    size_t w = 1;
    if (M >= 16 && n >= 16 && (a & 15) == 0) {
      *(word16::type*)d = *(const word16::type*)s;
      w = 16;
    } else if (M >= 8 && n >= 8 && (a & 7) == 0) {
      *(unsigned long long*)d = *(const unsigned long long*)s;
      w = 8;
    } else if (M >= 4 && n >= 4 && (a & 3) == 0) {
      *(unsigned int*)d = *(const unsigned int*)s;
      w = 4;
    } else if (M >= 2 && n >= 2 && (a & 1) == 0) {
      *(unsigned short*)d = *(const unsigned short*)s;
      w = 2;
    } else {
      *d = *s;
    }
    d += w, s += w, n -= w;
  }
}

// Copy n > 16 bytes with words of W (both pointers share W's alignment: the caller checked), lanes
// striding over words. Each lane keeps B loads in flight before it stores them: a load-then-store
// loop waits one full memory latency per word (one thread copied 4 KiB at ~6 words per µs).
template <typename W, unsigned B, bool TailBatch>
GIO_DEVICE_INLINE void copy_words(uint8_t* d, const uint8_t* s, size_t n, unsigned lane, unsigned lanes) {
  // Head bytes up to W alignment of the destination, by one lane.
  const size_t head = (W::align - ((uintptr_t)d & (W::align - 1))) & (W::align - 1);  // < 16 < n
  if (head && lane == 0) copy_small<W::align>(d, s, head);
  const size_t words = (n - head) / W::align;
  typename W::type* dw = (typename W::type*)(d + head);
  const typename W::type* sw = (const typename W::type*)(s + head);
  size_t i = lane;
  for (; i + (size_t)(B - 1) * lanes < words; i += (size_t)B * lanes) {
    typename W::type v[B];
    GIO_UNROLL
    for (unsigned k = 0; k < B; ++k) v[k] = sw[i + k * lanes];
    GIO_UNROLL
    for (unsigned k = 0; k < B; ++k) dw[i + k * lanes] = v[k];
  }
  // A lone thread keeps the loads of its last partial batch in flight too: a word-at-a-time tail
  // made 128 bytes (8 words, no full batch of 16) slower than 256. Lanes of a group share the
  // tail, so they keep the plain loop: the unrolled guarded batch in the work-group put made the
  // Jacobi2D persistent kernel 7 % slower on one H200, puts or not (jacobi2d --variant gio, apps/jacobi2d/scaling.sh).
  // A word past the end is zero, not left undefined (as lane_words below): undefined, it could
  // carry over from the previous copy to the store of this one as far as ptxas could tell, so in
  // a loop of thread puts each of the batch's words of each width lived across the calls, in local
  // memory, read and written back around the tail (gio-bench's callcost kernel at thread scope ran
  // at 255 registers with an 848-byte frame; tests/sass/check_thread_put.py, k_thread_put_loop).
  if (!TailBatch) {
    for (; i < words; i += lanes) dw[i] = sw[i];
  } else if (i < words) {
    typename W::type v[B];
    GIO_UNROLL
    for (unsigned k = 0; k < B; ++k) v[k] = i + k * lanes < words ? sw[i + k * lanes] : typename W::type();
    GIO_UNROLL
    for (unsigned k = 0; k < B; ++k)
      if (i + k * lanes < words) dw[i + k * lanes] = v[k];
  }
  const size_t done = head + words * W::align;
  if (done < n && lane == words % lanes) copy_small<W::align>(d + done, s + done, n - done);
}

// A lane's K words, word k at byte off + k * step of the message (k < K), each moved only where it
// lies inside n. A word outside n is zero, not left undefined: undefined (as an array or as these
// members), ptxas kept each width's word in a stack slot in Jacobi2D's put_segment, an out-of-line
// caller under a 64-register cap (32 more bytes of stack, a local load and store around each word).
template <typename T, unsigned K>
struct lane_words {
  T w;
  lane_words<T, K - 1> rest;
  GIO_DEVICE_INLINE void load(const uint8_t* s, unsigned n, unsigned off, unsigned step) {
    w = off < n ? *(const T*)(s + off) : T();
    rest.load(s, n, off + step, step);
  }
  GIO_DEVICE_INLINE void store(uint8_t* d, unsigned n, unsigned off, unsigned step, bool go) const {
    if (go && off < n) *(T*)(d + off) = w;
    rest.store(d, n, off + step, step, go);
  }
};
template <typename T>
struct lane_words<T, 0> {
  GIO_DEVICE_INLINE void load(const uint8_t*, unsigned, unsigned, unsigned) {}
  GIO_DEVICE_INLINE void store(uint8_t*, unsigned, unsigned, unsigned, bool) const {}
};

// A cooperative copy in which every lane moves at most K words (S::inline_words), all of one
// width: the widest (16, 8, 4, 2 or 1 bytes) that divides both addresses and n, the same in every
// lane, so choosing it does not diverge. Word k of a lane is word lane + k * lanes of the message;
// the K loads and the K stores are unrolled and predicated on lying inside n: no head, no tail, no
// loop, and every load in flight before the first store. This is the whole copy of a small
// cooperative put or get (2 KiB at a 32-lane wave of 16-byte words); a larger one takes the general
// copy, out of line (dispatch.h). Returns false, having stored nothing, when n needs more words than
// that or `go` is false (the peer is not reached by loads and stores).
//
// LoadFirst: the loads go out before `go` is known, so the caller's lookups of the transport and of
// the peer's mapping (constant loads, for `go` and for a put's d) overlap their latency; `go` then
// predicates each store, and the loaded words are dropped when it is false. (As a branch after the
// loads, ptxas moved the test, and the transport's load, in front of them.) A get's source is the
// peer's memory: it tests first.
//
// The width is picked from `align`, the caller's addresses and n or'ed, by tests on its bits, not by
// a switch (a switch compiled to a jump table, an indexed constant load and an indirect branch on
// every call). A symmetric address stands for its peer mapping there: a peer's heap is mapped at an
// address congruent to this PE's heap modulo GIO_P2P_MAP_ALIGN (runtime/defs.h).
template <typename T, unsigned K, bool LoadFirst>
GIO_DEVICE_INLINE bool copy_lane_words_of(uint8_t* d, const uint8_t* s, size_t n, bool go, unsigned lane, unsigned lanes) {
  if (n > (size_t)K * lanes * sizeof(T)) return false;
  if (!LoadFirst && !go) return false;
  // Offsets in 32 bits from here (n is at most K x 1024 lanes x 16 bytes): half the compares.
  const unsigned off = lane * (unsigned)sizeof(T), step = lanes * (unsigned)sizeof(T);
  lane_words<T, K> v;
  v.load(s, (unsigned)n, off, step);
  v.store(d, (unsigned)n, off, step, go);
  return go;
}
template <typename S, bool LoadFirst>
GIO_DEVICE_INLINE bool copy_lane_words(uintptr_t align, uint8_t* d, const uint8_t* s, size_t n, bool go) {
  constexpr unsigned K = S::inline_words;
  const unsigned lane = S::lane(), lanes = S::lanes();
  if ((align & 15) == 0) return copy_lane_words_of<word16::type, K, LoadFirst>(d, s, n, go, lane, lanes);
  if ((align & 7) == 0) return copy_lane_words_of<word8::type, K, LoadFirst>(d, s, n, go, lane, lanes);
  if ((align & 3) == 0) return copy_lane_words_of<word4::type, K, LoadFirst>(d, s, n, go, lane, lanes);
  if ((align & 1) == 0) return copy_lane_words_of<unsigned short, K, LoadFirst>(d, s, n, go, lane, lanes);
  return copy_lane_words_of<uint8_t, K, LoadFirst>(d, s, n, go, lane, lanes);
}

// One thread's whole small put: the words of one width (16, 8, 4, 2 or 1 bytes: the widest that
// divides both addresses and n, as copy_lane_words picks it), every load in flight before the first
// store, each predicated on lying inside n, no loop, no call: up to 16 bytes in words of any width,
// up to 128 in 16- or 8-byte words, up to 64 in 4-byte words. Returns false, having stored nothing,
// for anything larger (the caller takes the general copy, p2p.h) or when `go` is false (LoadFirst:
// the loads went out anyway, as a cooperative put's do, so the transport's and the mapping's
// constant loads overlap them).
//
// Why the general copy is not enough: its head, its batched tail and their 64-bit compares cost a
// 32-128 B put about 340 cycles more than a 16 B one on an H200, against NVSHMEM's plain loop
// (gio-bench callcost --scope thread; tests/sass/check_thread_put.py keeps this form). The width
// includes n, not only the addresses, so threads of a wave putting n bytes each at consecutive
// addresses all take the same width and their stores coalesce (8 B at 8 B strides: every second
// address is also 16-byte aligned, but n is not). Up to 16 bytes has a form of its own, with at most
// 16 / width words: a thread's 8-byte put (a message-rate loop's) issues two predicated words, not
// sixteen. Every word is loaded before the first is stored, so a source that overlaps the
// destination (a put to this PE inside one buffer) is moved as memmove moves it.
constexpr size_t kThreadInlineMax = 128;
template <size_t M, bool LoadFirst>
GIO_DEVICE_INLINE bool copy_thread_upto(uintptr_t align, uint8_t* d, const uint8_t* s, size_t n, bool go) {
  if ((align & 15) == 0) return copy_lane_words_of<word16::type, M / 16, LoadFirst>(d, s, n, go, 0, 1);
  if ((align & 7) == 0) return copy_lane_words_of<word8::type, M / 8, LoadFirst>(d, s, n, go, 0, 1);
  if ((align & 3) == 0) return copy_lane_words_of<word4::type, (M / 4 < 16 ? M / 4 : 16), LoadFirst>(d, s, n, go, 0, 1);
  if (M > 16) return false;  // 2- and 1-byte words: 16 bytes at most, the form below
  if ((align & 1) == 0) return copy_lane_words_of<unsigned short, M / 2, LoadFirst>(d, s, n, go, 0, 1);
  return copy_lane_words_of<uint8_t, M, LoadFirst>(d, s, n, go, 0, 1);
}
template <bool LoadFirst>
GIO_DEVICE_INLINE bool copy_thread_small(uintptr_t align, uint8_t* d, const uint8_t* s, size_t n, bool go) {
  if (n <= 16) return copy_thread_upto<16, LoadFirst>(align, d, s, n, go);
  return copy_thread_upto<kThreadInlineMax, LoadFirst>(align, d, s, n, go);
}

// Copy n bytes with the widest access both pointers' alignment allows.
template <typename S>
GIO_DEVICE_INLINE void copy_bytes(void* dst, const void* src, size_t n) {
  uint8_t* d = (uint8_t*)dst;
  const uint8_t* s = (const uint8_t*)src;
  uintptr_t mis = (uintptr_t)d ^ (uintptr_t)s;
  unsigned lane = S::lane(), lanes = S::lanes();
  // Up to 16 bytes: one lane and no loops. Thread-scope callers with the same alignment (8 bytes
  // each, at consecutive addresses) then run the same store instruction, which the warp coalesces;
  // the loop path split them into a head and a tail branch.
  if (n <= 16) {
    if (lane != 0) return;
    if ((mis & 15) == 0)
      copy_small<16>(d, s, n);
    else if ((mis & 7) == 0)
      copy_small<8>(d, s, n);
    else if ((mis & 3) == 0)
      copy_small<4>(d, s, n);
    else if ((mis & 1) == 0)
      copy_small<2>(d, s, n);
    else
      copy_small<1>(d, s, n);
    return;
  }
  if ((mis & 15) == 0)
    copy_words<word16, S::copy_batch, S::one_lane>(d, s, n, lane, lanes);
  else if ((mis & 7) == 0)
    copy_words<word8, S::copy_batch, S::one_lane>(d, s, n, lane, lanes);
  else if ((mis & 3) == 0)
    copy_words<word4, S::copy_batch, S::one_lane>(d, s, n, lane, lanes);
  else
    copy_words<word1, S::copy_batch, S::one_lane>(d, s, n, lane, lanes);
}

// One thread's copy into or out of a gda or proxy bounce buffer: out of line, 8 loads in flight and
// the plain tail loop. Inlined there, the lone thread's copy (16 in flight, the batched tail) took
// gda::put to 232 registers and proxy::put to 218 (72-82 now), and ptxas gives a callee registers
// of its own under its caller's: every kernel that could reach them, a loop of p2p puts too, ran at
// 255 registers and kept its loop state in local memory (k_callcost<b_wave>: 1.7 KiB of stack and
// loads from it on every call). The stage is the fallback for buffers outside the heap, on a path
// whose network transfer dwarfs the copy.
struct scope_stage {
  static constexpr bool one_lane = false;  // (no bulk-copy stage, no batched tail)
  static GIO_DEVICE_INLINE unsigned lane() { return 0; }
  static GIO_DEVICE_INLINE unsigned lanes() { return 1; }
  static GIO_DEVICE_INLINE void sync() {}
  static constexpr unsigned copy_batch = 8;
};
GIO_DEVICE_NOINLINE void copy_stage(uint8_t* d, const uint8_t* s, size_t n) { copy_bytes<scope_stage>(d, s, n); }

}  // namespace dev
}  // namespace gio
#endif
