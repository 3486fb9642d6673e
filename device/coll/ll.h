// The LL (low-latency) protocol of small device collectives: each 8-byte word a member stores into
// a peer carries 4 data bytes and a 4-byte flag, the number of the call. The receiver polls the
// words it expects until each shows this call's flag, so no fence, quiet or signal is needed
// between the data and its arrival: one store per word, one hop. Used on teams whose members all
// reach each other over p2p (stores into mapped heaps; an 8-byte store is single-copy atomic).
//
// Buffers: each slot has two halves of GIO_TEAM_LL_WORDS words; call s uses half s & 1, and in it
// the words of sender i start at i * (GIO_TEAM_LL_WORDS / n). A sender reuses a half two calls
// later; that is safe because in every LL call each member hears from every other member (a
// broadcast's non-roots send the others a token word), so when a sender has finished call s - 1 it
// has heard from the receiver in s - 1, which the receiver sent after reading everything of call
// s - 2. Generic calls end with a team sync, which orders them the same way.
//
// The call number lives in the slot (ll_seq), the same on every member since all make the same
// calls. Before it would wrap, one call takes the generic path instead, clears this PE's area and
// restarts the count, so a stale word can never show a current flag.
#pragma once
#include "device/coll/team_dev.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

// Words of the LL area one sender may use on a team of n.
GIO_DEVICE_INLINE unsigned ll_words_per_sender(int n) { return GIO_TEAM_LL_WORDS / (unsigned)n; }

// True when a call sending `bytes` to each member may use the LL protocol on this team.
GIO_DEVICE_INLINE bool ll_fits(const gio_team_v1& tm, size_t bytes) {
  return gio_team_ll_fits(tm.all_p2p, tm.n_pes, tm.ll_max, bytes);
}

// Starts a call that may use LL: returns its number (the flag), or 0 when this call must go the
// generic way because the count is about to wrap (then this PE's area is cleared here; the
// generic call's closing sync keeps every sender from writing into it before it is clean).
template <typename S>
GIO_DEVICE_INLINE uint32_t ll_begin(const gio_device_state_v1& st, int t, gio_team_v1& tm) {
  S::sync();
  const uint32_t seq = tm.ll_seq;  // every lane reads it before lane 0 may change it below
  S::sync();
  if (seq == 0xffffffffu) {
    uint64_t* ll = team_ll(st, t);
    for (unsigned w = S::lane(); w < 2u * GIO_TEAM_LL_WORDS; w += S::lanes()) ll[w] = 0;
    S::sync();
    if (S::lane() == 0) tm.ll_seq = 0;
    return 0;
  }
  S::sync();
  if (S::lane() == 0) tm.ll_seq = seq + 1;
  return seq + 1;
}

// The words of `sender` in half (seq & 1) of a member's LL area, at the given base.
GIO_DEVICE_INLINE uint64_t* ll_region(uint64_t* base, uint32_t seq, int sender, int n) {
  return base + (seq & 1u) * GIO_TEAM_LL_WORDS + (size_t)sender * ll_words_per_sender(n);
}

// 4 bytes of `src` at word w (fewer at the end: the rest are zero, the source is never overread).
GIO_DEVICE_INLINE uint32_t ll_chunk(const uint8_t* src, size_t bytes, size_t w) {
  uint32_t v = 0;
  const size_t at = w * 4;
  if (at + 4 <= bytes)
    memcpy(&v, src + at, 4);
  else
    for (size_t i = at; i < bytes; ++i) v |= (uint32_t)src[i] << (8 * (i - at));
  return v;
}

// Stores `bytes` of src (this PE's memory) as LL words into `remote` (a peer's mapped region),
// spread over the scope's lanes.
template <typename S>
GIO_DEVICE_INLINE void ll_send(unsigned long long* remote, const uint8_t* src, size_t bytes, uint32_t seq) {
  const size_t words = bytes ? (bytes + 3) / 4 : 1;  // an empty message still carries its flag
  for (size_t w = S::lane(); w < words; w += S::lanes())
    plat::store_relaxed_system(remote + w, ((unsigned long long)seq << 32) | ll_chunk(src, bytes, w));
}

// Waits for word w of this PE's region to show `seq`; returns its data half.
GIO_DEVICE_INLINE uint32_t ll_wait(const char* rt, const uint64_t* word, uint32_t seq, int t, int sender) {
  unsigned long long v = plat::load_polled((const unsigned long long*)word);
  if ((uint32_t)(v >> 32) == seq) return (uint32_t)v;
  bounded_wait([&] { return (uint32_t)((v = plat::load_polled((const unsigned long long*)word)) >> 32) == seq; },
               [&](unsigned long long ms) {
                 GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms for team %d's "
                               "member %d in LL call %u: word %p shows call %u\n",
                               rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms, t, sender, seq,
                               (void*)word, (unsigned)(v >> 32));
               });
  return (uint32_t)v;
}

// Receives `bytes` from the region into dst (this PE's memory), spread over the scope's lanes.
template <typename S>
GIO_DEVICE_INLINE void ll_recv(const char* rt, uint8_t* dst, const uint64_t* region, size_t bytes, uint32_t seq, int t,
                     int sender) {
  const size_t words = bytes ? (bytes + 3) / 4 : 1;
  for (size_t w = S::lane(); w < words; w += S::lanes()) {
    const uint32_t v = ll_wait(rt, region + w, seq, t, sender);
    const size_t at = w * 4;
    if (at + 4 <= bytes)
      memcpy(dst + at, &v, 4);
    else
      for (size_t i = at; i < bytes; ++i) dst[i] = (uint8_t)(v >> (8 * (i - at)));
  }
}

// `bytes` (<= 8 here, or any size at an offset) of an element at byte `at` of a sender's region.
GIO_DEVICE_INLINE void ll_read(const char* rt, uint8_t* out, const uint64_t* region, size_t at, size_t bytes, uint32_t seq,
                     int t, int sender) {
  size_t i = 0;
  while (i < bytes) {
    const size_t w = (at + i) / 4, off = (at + i) % 4;
    const uint32_t v = ll_wait(rt, region + w, seq, t, sender);
    for (size_t k = off; k < 4 && i < bytes; ++k, ++i) out[i] = (uint8_t)(v >> (8 * k));
  }
}

}  // namespace dev
}  // namespace gio
#endif
