// The proxy thread: drains every ring in order and turns each command into libfabric operations
// (fabric.h), one at a time to completion; then publishes the ring's completion counter.
//
// Order: a command's operations complete (delivery complete) before the next command of its ring
// starts, so puts, then the signal after them, land in the order a context issued them; that is
// shmem_fence's guarantee and put-with-signal's.
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <cstring>
#include <thread>

#include "host/backoff.h"
#include "runtime/host_entry.h"  // gio_amo_op
#include "host/log.h"
#include "host/proxy/fabric.h"
#include "host/proxy/proxy_msg.h"
#include "host/proxy/proxy_state.h"
#include "host/runtime.h"

namespace gio {
namespace {
// Most commands one ring gets per pass, so a busy context does not starve the others.
constexpr unsigned kTurn = 16;
// Largest single RMA message; larger puts and gets are split.
constexpr uint64_t kChunk = 16ull << 20;

using clk = std::chrono::steady_clock;
inline double us_since(clk::time_point t0) { return std::chrono::duration<double, std::micro>(clk::now() - t0).count(); }
inline int64_t now_ns() { return std::chrono::duration_cast<std::chrono::nanoseconds>(clk::now().time_since_epoch()).count(); }

// Where a staged put's time goes, summed over the run and printed at shmem_finalize under
// GIO_DEBUG=1: the pipeline is as fast as its slowest stage only if no stage waits for another.
struct staging_times {
  uint64_t puts = 0, chunks = 0, bytes = 0, landed = 0;
  double total = 0;   // source: staged puts from start to the last acknowledgement
  double window = 0;  // source: waiting for an acknowledgement to open the window
  double copy = 0;    // source: waiting for a chunk's device-to-host copy
  double send = 0;    // source: inside the send until the staging slot may be reused
  double land = 0;    // target: from a chunk's arrival to its copy into the heap being done
};

struct executor {
  runtime& r;
  proxy_state& p;
  staging_times st;
  // The command in progress: its requests share one token, and its replies are counted.
  uint64_t token = 0, last_token = 0;
  uint64_t replies = 0;
  proxy_msg reply{};           // the last reply (an atomic's old value)
  uint8_t* get_dst = nullptr;  // a staged get: where the GET_REPs' payloads go, by heap offset
  uint64_t get_roff = 0, get_len = 0;

  [[noreturn]] void bad(const gio_proxy_ring_v1& q, uint64_t idx, const gio_proxy_cmd_v1& c, const char* what) {
    fatal(GIO_ERR_TRANSPORT, "proxy thread", "command %llu of ring %u (%s to PE %d, heap offset %llu, %llu bytes): %s",
          (unsigned long long)idx, q.set, gio_proxy_op_name(c.op), c.pe, (unsigned long long)c.roff,
          (unsigned long long)gio_proxy_cmd_bytes(c), what);
  }

  // The checks a kernel made before posting, made again on what the proxy read: a torn or stray
  // command stops the job instead of moving bytes to a wrong place.
  void check(const gio_proxy_ring_v1& q, uint64_t idx, const gio_proxy_cmd_v1& c) {
    if (c.pe < 0 || c.pe >= r.n_pes) bad(q, idx, c, "target PE out of range");
    const uint64_t n = gio_proxy_cmd_bytes(c);
    // (Every PE's heap and data segment have the sizes of this PE's: the bounds hold for the target.)
    if (!sym_local(r, c.roff, n)) bad(q, idx, c, "runs past the target's heaps or data segment");
    if (c.local == GIO_PROXY_LOCAL_HEAP && (c.laddr > r.heap_size || c.len > r.heap_size - c.laddr))
      bad(q, idx, c, "the local buffer runs past this PE's heap");
    if (c.local == GIO_PROXY_LOCAL_INLINE && c.len > GIO_PROXY_INLINE_MAX) bad(q, idx, c, "inline payload too long");
    if (c.local == GIO_PROXY_LOCAL_RESULT && c.len > 8) bad(q, idx, c, "a result-word get moves at most 8 bytes");
    if ((c.op == GIO_PROXY_OP_AMO || c.op == GIO_PROXY_OP_SIGNAL) && c.bytes != 4 && c.bytes != 8)
      bad(q, idx, c, "atomic operand size is neither 4 nor 8");
  }

  // Something moved (proxy_state::now): a reply came, a peer's request was served, a copy finished.
  void moved() { p.now.last_ns.store(now_ns(), std::memory_order_relaxed); }

  // ---- the target side: a peer's request, executed on this PE's heap ----------------------------
  void take_reply(const proxy_msg& m, const uint8_t* payload) {
    if (m.token != token)
      fatal(GIO_ERR_TRANSPORT, "proxy thread", "a reply from PE %d names request %llu; request %llu is outstanding",
            m.src, (unsigned long long)m.token, (unsigned long long)token);
    if (m.kind == PROXY_MSG_GET_REP) {
      if (m.roff < get_roff || m.len > get_len || m.roff - get_roff > get_len - m.len)
        fatal(GIO_ERR_TRANSPORT, "proxy thread", "PE %d replied with %llu bytes for heap offset %llu, outside the get "
              "of %llu bytes at %llu", m.src, (unsigned long long)m.len, (unsigned long long)m.roff,
              (unsigned long long)get_len, (unsigned long long)get_roff);
      gpu::nic_copy(get_dst + (m.roff - get_roff), payload, m.len);
    }
    reply = m;
    ++replies;
    p.now.acked.store(replies, std::memory_order_relaxed);
  }

  // Staged chunks being copied into this PE's heap: each is acknowledged, and its receive buffer
  // reposted, once its copy is done (in order: tickets complete in issue order).
  struct landing {
    uint64_t ticket;
    const uint8_t* buf;
    int to;  // the source PE
    proxy_msg ack;
    clk::time_point arrived;
  };
  std::deque<landing> landings;

  void send_reply(int pe, const proxy_msg& rep, size_t payload) {
    memcpy(p.reply(), &rep, sizeof rep);
    p.fab->send(pe, p.reply(), sizeof rep + payload);
  }
  bool land() {
    bool any = false;
    while (!landings.empty() && gpu::nic_copy_done(landings.front().ticket)) {
      const landing l = landings.front();
      landings.pop_front();
      st.land += us_since(l.arrived);
      ++st.landed;
      send_reply(l.to, l.ack, 0);
      if (l.buf) p.fab->repost(l.buf);  // an inbox chunk's message buffer went back at once
      any = true;
    }
    return any;
  }

  // Returns false when it keeps `buf` (a staged chunk still being copied into the heap).
  bool serve(const uint8_t* buf, size_t n) {
    proxy_msg m;
    if (n < sizeof m) fatal(GIO_ERR_TRANSPORT, "proxy thread", "a %zu-byte message is shorter than its header", n);
    memcpy(&m, buf, sizeof m);
    if (m.kind == PROXY_MSG_GET_REP && n < sizeof m + m.len)
      fatal(GIO_ERR_TRANSPORT, "proxy thread", "PE %d's reply of %zu bytes is shorter than its %llu-byte payload",
            m.src, n, (unsigned long long)m.len);
    if (m.kind == PROXY_MSG_AMO_REP || m.kind == PROXY_MSG_PUT_ACK || m.kind == PROXY_MSG_GET_REP) {
      take_reply(m, buf + sizeof m);
      return true;
    }
    const uint64_t len = m.kind == PROXY_MSG_AMO_REQ ? m.bytes : m.len;
    uint8_t* const at = sym_local(r, m.roff, len);  // a heap, or the data segment (host/heap/globals.h)
    if (!at || len > p.chunk ||
        (m.kind == PROXY_MSG_PUT_REQ && n < sizeof m + len))
      fatal(GIO_ERR_TRANSPORT, "proxy thread", "PE %d asked for %llu bytes at heap offset %llu (message kind %u, %zu "
            "bytes): outside this PE's heap of %llu bytes and its data segment", m.src, (unsigned long long)len,
            (unsigned long long)m.roff, m.kind, n, (unsigned long long)r.heap_size);
    proxy_msg rep{};
    rep.src = r.my_pe;
    rep.token = m.token;
    rep.roff = m.roff;
    size_t payload = 0;
    switch (m.kind) {
      case PROXY_MSG_AMO_REQ:
        rep.kind = PROXY_MSG_AMO_REP;
        // A global or a default-heap word is host memory on every platform, out of the GPU atomic
        // kernel's reach.
        rep.value = sym_is_host_memory(m.roff) ? cpu_amo(at, m.amo_op, m.value, m.compare, m.bytes, "proxy thread")
                                           : gpu::nic_amo(at, m.amo_op, m.value, m.compare, m.bytes);
        break;
      case PROXY_MSG_PUT_REQ:  // acknowledged once the bytes are in the heap: the source's quiet waits for it
        rep.kind = PROXY_MSG_PUT_ACK;
        landings.push_back({gpu::nic_copy_start(at, buf + sizeof m, m.len), buf, m.src, rep, clk::now()});
        return false;
      case PROXY_MSG_PUT_INBOX:  // the bytes are in this PE's inbox already; the message only says where
        if (!p.inbox || m.src < 0 || m.src >= r.n_pes || m.value >= p.depth)
          fatal(GIO_ERR_TRANSPORT, "proxy thread", "PE %d named inbox slot %llu, outside the %u this PE keeps for it",
                m.src, (unsigned long long)m.value, p.inbox ? p.depth : 0);
        rep.kind = PROXY_MSG_PUT_ACK;
        landings.push_back({gpu::nic_copy_start(at, p.inbox_slot(m.src, (unsigned)m.value), m.len),
                            nullptr, m.src, rep, clk::now()});
        return true;
      case PROXY_MSG_GET_REQ:
        rep.kind = PROXY_MSG_GET_REP;
        rep.len = m.len;
        gpu::nic_copy(p.reply() + sizeof rep, at, m.len);
        payload = m.len;
        break;
      default:
        fatal(GIO_ERR_TRANSPORT, "proxy thread", "PE %d sent a message of unknown kind %u", m.src, m.kind);
    }
    send_reply(m.src, rep, payload);
    return true;
  }

  // Serves whatever arrived and acknowledges what landed; true if anything happened.
  bool serve_all() {
    bool any = land();
    while (p.fab->take_message([&](const uint8_t* b, size_t n) { return serve(b, n); })) any = true;
    any = land() || any;
    if (any) moved();
    return any;
  }

  // ---- the source side: a command's requests and their replies ----------------------------------
  // Peers' requests are served while this proxy waits (two proxies may be waiting on each other),
  // and the core is given up after a short spin (the peer's proxy may need it to answer).
  template <typename Done>
  void wait_for(Done done, int pe, const char* what) {
    const auto t0 = std::chrono::steady_clock::now();
    backoff pace;  // the peer's proxy may share this core (host/backoff.h)
    for (unsigned spins = 0; !done(); ++spins) {
      if (serve_all()) continue;
      pace.pause();
      if ((spins & 255) == 0 && r.cfg.GIO_TIMEOUT_MS) {
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
        if ((uint64_t)ms > r.cfg.GIO_TIMEOUT_MS)
          fatal(GIO_ERR_TIMEOUT, "proxy thread", "waited %lld ms (GIO_TIMEOUT_MS=%llu) for %s (PE %d, request %llu, "
                "%llu of its replies came): did PE %d exit?", (long long)ms, (unsigned long long)r.cfg.GIO_TIMEOUT_MS,
                what, pe, (unsigned long long)token, (unsigned long long)replies, pe);
      }
    }
    moved();
  }

  // A request's start: `chunks` staged messages will be sent under one token (proxy_state::now
  // counts their replies).
  void begin(uint64_t chunks, uint8_t* dst = nullptr, uint64_t roff = 0, uint64_t len = 0) {
    token = ++last_token;
    replies = 0;
    p.now.chunks.store(chunks, std::memory_order_relaxed);
    p.now.acked.store(0, std::memory_order_relaxed);
    get_dst = dst;
    get_roff = roff;
    get_len = len;
  }
  // Sends the request in staging slot `slot` (header `m`, then `payload` bytes already there).
  void send(int pe, unsigned slot, proxy_msg m, size_t payload) {
    m.src = r.my_pe;
    m.token = token;
    memcpy(p.stage(slot), &m, sizeof m);
    p.fab->send(pe, p.stage(slot), sizeof m + payload);
  }
  void wait_replies(int pe, uint64_t want, const char* what) {
    wait_for([&] { return replies >= want; }, pe, what);
    token = 0;
  }

  // The local buffer of a put or get.
  uint8_t* local(gio_proxy_ring_v1& q, uint32_t slot, const gio_proxy_cmd_v1& c) {
    switch (c.local) {
      case GIO_PROXY_LOCAL_HEAP: return r.heap + c.laddr;
      case GIO_PROXY_LOCAL_RESULT: return (uint8_t*)&q.result[slot];
      default: return (uint8_t*)(uintptr_t)c.laddr;
    }
  }

  void put(gio_proxy_ring_v1& q, uint32_t slot, const gio_proxy_cmd_v1& c) {
    uint8_t inline_data[16];
    const uint8_t* src = inline_data;
    if (c.local == GIO_PROXY_LOCAL_INLINE) {
      memcpy(inline_data, &c.value, 8);
      memcpy(inline_data + 8, &c.compare, 8);
    } else {
      src = local(q, slot, c);
    }
    // The target heap is host memory: one delivery-complete write per chunk. A global (data segment)
    // or a default-heap block is no registered region: it goes through the target's proxy like a
    // GPU heap's staged data.
    if (p.heap_direct && !sym_is_host_memory(c.roff)) {
      if (c.local == GIO_PROXY_LOCAL_INLINE) {  // from a registered buffer (FI_MR_LOCAL providers)
        memcpy(p.stage(0), inline_data, sizeof inline_data);
        src = p.stage(0);
      }
      for (uint64_t off = 0; off < c.len; off += kChunk)
        p.fab->write(c.pe, c.roff + off, src + off, c.len - off < kChunk ? c.len - off : kChunk);
      return;
    }
    if (!p.peer_inbox.empty()) return put_inbox(c, src);
    // Staged, pipelined: while `depth` chunks are on their way, the next is copied device-to-host
    // into a staging slot of its own; the target's proxy copies each into its heap and acknowledges
    // it, and the command completes (so quiet returns) only once every chunk is acknowledged.
    const uint64_t chunks = (c.len + p.chunk - 1) / p.chunk;
    const unsigned slots = p.stage_slots();
    auto bytes = [&](uint64_t k) { return std::min<uint64_t>(p.chunk, c.len - k * p.chunk); };
    uint64_t ticket[17] = {};
    auto copy_in = [&](uint64_t k) {
      uint8_t* to = p.stage(k % slots) + sizeof(proxy_msg);
      if (c.local == GIO_PROXY_LOCAL_INLINE)
        memcpy(to, src, c.len);  // ticket 0: done
      else
        ticket[k % slots] = gpu::nic_copy_start(to, src + k * p.chunk, bytes(k));
    };
    const auto t_put = clk::now();
    begin(chunks);
    for (uint64_t k = 0; k < chunks && k < slots; ++k) copy_in(k);
    for (uint64_t k = 0; k < chunks; ++k) {
      // At most `depth` chunks unacknowledged: the target's receives are counted for that many from
      // each peer (proxy_connect.cpp), and a send to a target without a free receive waits for it.
      auto t0 = clk::now();
      if (k >= p.depth) wait_for([&] { return replies > k - p.depth; }, c.pe, "the acknowledgements of a staged put");
      st.window += us_since(t0);
      t0 = clk::now();
      const uint64_t t = ticket[k % slots];
      wait_for([&] { return gpu::nic_copy_done(t); }, c.pe, "a staging copy (device to host)");
      st.copy += us_since(t0);
      proxy_msg m{};
      m.kind = PROXY_MSG_PUT_REQ;
      m.roff = c.roff + k * p.chunk;
      m.len = bytes(k);
      t0 = clk::now();
      send(c.pe, (unsigned)(k % slots), m, m.len);  // returns once the slot may be reused
      st.send += us_since(t0);
      if (k + slots < chunks) copy_in(k + slots);
    }
    wait_replies(c.pe, chunks, "the acknowledgements of a staged put");
    st.total += us_since(t_put);
    ++st.puts;
    st.chunks += chunks;
    st.bytes += c.len;
  }

  // Staged through the target's inbox (proxy_inbox.cpp): chunk k goes to slot k % depth of this
  // PE's slots there, copied in by the copy engine as soon as the chunk `depth` before it was
  // acknowledged (then the target has copied it out); the message for chunk k follows its copy.
  void put_inbox(const gio_proxy_cmd_v1& c, const uint8_t* src) {
    const uint64_t chunks = (c.len + p.chunk - 1) / p.chunk;
    uint8_t* slots = p.peer_inbox[c.pe];
    auto bytes = [&](uint64_t k) { return std::min<uint64_t>(p.chunk, c.len - k * p.chunk); };
    uint64_t ticket[16] = {};  // by slot (GIO_PROXY_DEPTH <= 16)
    uint64_t started = 0;
    auto start_free = [&] {
      for (; started < chunks && started < replies + p.depth; ++started) {
        uint8_t* to = slots + (started % p.depth) * p.chunk;
        if (c.local == GIO_PROXY_LOCAL_INLINE)
          memcpy(to, src, c.len);  // ticket 0: done
        else
          ticket[started % p.depth] = gpu::nic_copy_start(to, src + started * p.chunk, bytes(started));
      }
    };
    const auto t_put = clk::now();
    begin(chunks);
    for (uint64_t k = 0; k < chunks; ++k) {
      const auto t0 = clk::now();
      wait_for([&] { start_free(); return started > k && gpu::nic_copy_done(ticket[k % p.depth]); }, c.pe,
               "a staging copy into the target's inbox (device to host)");
      st.copy += us_since(t0);
      proxy_msg m{};
      m.kind = PROXY_MSG_PUT_INBOX;
      m.roff = c.roff + k * p.chunk;
      m.len = bytes(k);
      m.value = k % p.depth;
      send(c.pe, 0, m, 0);
    }
    wait_replies(c.pe, chunks, "the acknowledgements of a staged put");
    st.total += us_since(t_put);
    ++st.puts;
    st.chunks += chunks;
    st.bytes += c.len;
  }

  void get(gio_proxy_ring_v1& q, uint32_t slot, const gio_proxy_cmd_v1& c) {
    if (c.local == GIO_PROXY_LOCAL_RESULT) __atomic_store_n(&q.result[slot], 0ull, __ATOMIC_RELAXED);
    uint8_t* dst = local(q, slot, c);
    if (p.heap_direct && !sym_is_host_memory(c.roff)) {
      for (uint64_t off = 0; off < c.len; off += kChunk)
        p.fab->read(c.pe, c.roff + off, dst + off, c.len - off < kChunk ? c.len - off : kChunk);
      return;
    }
    // Staged: `depth` requests outstanding; each reply's payload is copied to where its offset says.
    const uint64_t chunks = (c.len + p.chunk - 1) / p.chunk;
    begin(chunks, dst, c.roff, c.len);
    for (uint64_t k = 0; k < chunks; ++k) {
      if (k >= p.depth) wait_for([&] { return replies > k - p.depth; }, c.pe, "the replies of a staged get");
      proxy_msg m{};
      m.kind = PROXY_MSG_GET_REQ;
      m.roff = c.roff + k * p.chunk;
      m.len = std::min<uint64_t>(p.chunk, c.len - k * p.chunk);
      send(c.pe, (unsigned)(k % p.depth), m, 0);
    }
    wait_replies(c.pe, chunks, "the replies of a staged get");
  }

  // Atomics (and signals) always run at the target, by its proxy (proxy_msg.h says why).
  uint64_t amo(int pe, uint64_t roff, int op, uint8_t bytes, uint64_t value, uint64_t compare) {
    proxy_msg m{};
    m.kind = PROXY_MSG_AMO_REQ;
    m.roff = roff;
    m.amo_op = (uint8_t)op;
    m.bytes = bytes;
    m.value = value;
    m.compare = compare;
    begin(0);  // one request, no staged chunks to count
    send(pe, 0, m, 0);
    wait_replies(pe, 1, "an atomic's reply");
    return reply.value;
  }

  void execute(gio_proxy_ring_v1& q, uint64_t idx, const gio_proxy_cmd_v1& c) {
    check(q, idx, c);
    const uint32_t slot = (uint32_t)idx & (q.slots - 1);
    switch (c.op) {
      case GIO_PROXY_OP_PUT: put(q, slot, c); return;
      case GIO_PROXY_OP_GET: get(q, slot, c); return;
      case GIO_PROXY_OP_AMO: {
        const uint64_t old = amo(c.pe, c.roff, c.amo_op, c.bytes, c.value, c.compare);
        __atomic_store_n(&q.result[slot], old, __ATOMIC_RELAXED);  // published by the counter's release
        return;
      }
      case GIO_PROXY_OP_SIGNAL:
        amo(c.pe, c.roff, c.amo_op == 1 ? GIO_AMO_FETCH_ADD : GIO_AMO_SET, 8, c.value, 0);
        return;
      default: bad(q, idx, c, "unknown operation code");
    }
  }
};
}  // namespace

void proxy_run(runtime& r, proxy_state& p) {
  gpu::bind_thread(r.device);
  executor ex{r, p};
  const size_t nrings = p.host_desc.size();
  std::vector<uint64_t> next(nrings, 0);
  unsigned idle = 0;
  struct {
    const gio_proxy_ring_v1* q;
    uint64_t idx;
    gio_proxy_cmd_v1 c;
  } current{};  // what a libfabric error interrupted, for its message
  try {
    while (!p.stop.load(std::memory_order_relaxed)) {
      bool progress = false;
      for (size_t i = 0; i < nrings; ++i) {
        gio_proxy_ring_v1& q = p.host_desc[i];
        for (unsigned turn = 0; turn < kTurn; ++turn) {
          const uint64_t idx = next[i];
          gio_proxy_cmd_v1* slot = &q.cmds[idx & (q.slots - 1)];
          // seq is stored last with release by the poster: it acquires every other field.
          if (__atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) != idx + 1) break;
          gio_proxy_cmd_v1 c;
          memcpy(&c, slot, sizeof c);  // a private copy: what is checked is what runs
          current = {&q, idx, c};
          p.now.idx.store(idx, std::memory_order_relaxed);
          p.now.op.store(c.op, std::memory_order_relaxed);
          p.now.pe.store(c.pe, std::memory_order_relaxed);
          p.now.bytes.store(gio_proxy_cmd_bytes(c), std::memory_order_relaxed);
          p.now.chunks.store(0, std::memory_order_relaxed);
          p.now.acked.store(0, std::memory_order_relaxed);
          p.now.ring.store((uint32_t)i, std::memory_order_relaxed);
          ex.moved();
          ex.execute(q, idx, c);
          current.q = nullptr;
          p.now.ring.store(proxy_state::activity::kIdle, std::memory_order_relaxed);
          ex.moved();
          next[i] = idx + 1;
          __atomic_store_n(q.completed, idx + 1, __ATOMIC_RELEASE);
          progress = true;
        }
      }
      if (progress) {
        idle = 0;
        continue;
      }
      // No command: serve peers' requests (which also drives the endpoint, as the target side of
      // their writes needs on providers with manual progress); spin a while for latency, then
      // yield and sleep so PEs sharing a few cores still run.
      if (ex.serve_all()) {
        idle = 0;
        continue;
      }
      if (++idle > 20000)
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      else if (idle > 64)
        sched_yield();
    }
    const staging_times& t = ex.st;
    if (t.puts || t.landed)
      info(1, "proxy: staged puts: %llu (%llu chunks, %.1f MiB) took %.0f us: waiting for the window %.0f, for "
              "device-to-host copies %.0f, in sends %.0f; %llu chunks landed here, %.1f us each from arrival to "
              "landed (GIO_PROXY_CHUNK=%zu, GIO_PROXY_DEPTH=%u)",
           (unsigned long long)t.puts, (unsigned long long)t.chunks, t.bytes / 1048576.0, t.total, t.window, t.copy,
           t.send, (unsigned long long)t.landed, t.landed ? t.land / t.landed : 0.0, p.chunk, p.depth);
  } catch (const proxy::fabric_error& e) {
    if (!current.q) fatal(GIO_ERR_TRANSPORT, "proxy thread", "%s (serving a peer's request)", e.what());
    ex.bad(*current.q, current.idx, current.c, e.what());
  }
}

}  // namespace gio
