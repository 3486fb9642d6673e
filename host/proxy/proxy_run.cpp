// The proxy thread: drains every ring in order and turns each command into libfabric operations
// (fabric.h), one at a time to completion; then publishes the ring's completion counter.
//
// Order: a command's operations complete (delivery complete) before the next command of its ring
// starts, so puts, then the signal after them, land in the order a context issued them; that is
// shmem_fence's guarantee and put-with-signal's.
#include <sched.h>

#include <chrono>
#include <cstring>
#include <thread>

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

const char* op_name(uint8_t op) {
  switch (op) {
    case GIO_PROXY_OP_PUT: return "put";
    case GIO_PROXY_OP_GET: return "get";
    case GIO_PROXY_OP_AMO: return "atomic";
    case GIO_PROXY_OP_SIGNAL: return "signal";
    default: return "unknown operation";
  }
}

struct executor {
  runtime& r;
  proxy_state& p;
  uint64_t token = 0;          // the outstanding request's (0: none)
  proxy_msg reply{};           // its reply, once it came
  bool replied = false;
  uint8_t* get_dst = nullptr;  // where a GET_REP's payload goes

  [[noreturn]] void bad(const gio_proxy_ring_v1& q, uint64_t idx, const gio_proxy_cmd_v1& c, const char* what) {
    fatal(GIO_ERR_TRANSPORT, "proxy thread", "command %llu of ring %u (%s to PE %d, heap offset %llu, %llu bytes): %s",
          (unsigned long long)idx, q.set, op_name(c.op), c.pe, (unsigned long long)c.roff, (unsigned long long)c.len,
          what);
  }

  // The checks a kernel made before posting, made again on what the proxy read: a torn or stray
  // command stops the job instead of moving bytes to a wrong place.
  void check(const gio_proxy_ring_v1& q, uint64_t idx, const gio_proxy_cmd_v1& c) {
    if (c.pe < 0 || c.pe >= r.n_pes) bad(q, idx, c, "target PE out of range");
    const uint64_t n = c.op == GIO_PROXY_OP_PUT || c.op == GIO_PROXY_OP_GET ? c.len : c.bytes;
    if (c.roff > r.heap_size || n > r.heap_size - c.roff) bad(q, idx, c, "runs past the target's heap");
    if (c.local == GIO_PROXY_LOCAL_HEAP && (c.laddr > r.heap_size || c.len > r.heap_size - c.laddr))
      bad(q, idx, c, "the local buffer runs past this PE's heap");
    if (c.local == GIO_PROXY_LOCAL_INLINE && c.len > GIO_PROXY_INLINE_MAX) bad(q, idx, c, "inline payload too long");
    if (c.local == GIO_PROXY_LOCAL_RESULT && c.len > 8) bad(q, idx, c, "a result-word get moves at most 8 bytes");
    if ((c.op == GIO_PROXY_OP_AMO || c.op == GIO_PROXY_OP_SIGNAL) && c.bytes != 4 && c.bytes != 8)
      bad(q, idx, c, "atomic operand size is neither 4 nor 8");
  }

  // ---- the target side: a peer's request, executed on this PE's heap ----------------------------
  void serve(const uint8_t* buf, size_t n) {
    proxy_msg m;
    if (n < sizeof m) fatal(GIO_ERR_TRANSPORT, "proxy thread", "a %zu-byte message is shorter than its header", n);
    memcpy(&m, buf, sizeof m);
    if (m.kind == PROXY_MSG_AMO_REP || m.kind == PROXY_MSG_PUT_ACK || m.kind == PROXY_MSG_GET_REP) {
      if (m.token != token || replied)
        fatal(GIO_ERR_TRANSPORT, "proxy thread", "a reply from PE %d names request %llu; request %llu is outstanding",
              m.src, (unsigned long long)m.token, (unsigned long long)token);
      if (m.kind == PROXY_MSG_GET_REP) gpu::nic_copy(get_dst, buf + sizeof m, m.len);
      reply = m;
      replied = true;
      return;
    }
    const uint64_t len = m.kind == PROXY_MSG_AMO_REQ ? m.bytes : m.len;
    if (m.roff > r.heap_size || len > r.heap_size - m.roff || len > p.chunk ||
        (m.kind == PROXY_MSG_PUT_REQ && n < sizeof m + len))
      fatal(GIO_ERR_TRANSPORT, "proxy thread", "PE %d asked for %llu bytes at heap offset %llu (message kind %u, %zu "
            "bytes): outside this PE's heap of %llu bytes", m.src, (unsigned long long)len, (unsigned long long)m.roff,
            m.kind, n, (unsigned long long)r.heap_size);
    proxy_msg rep{};
    rep.src = r.my_pe;
    rep.token = m.token;
    size_t payload = 0;
    switch (m.kind) {
      case PROXY_MSG_AMO_REQ:
        rep.kind = PROXY_MSG_AMO_REP;
        rep.value = gpu::nic_amo(r.heap + m.roff, m.amo_op, m.value, m.compare, m.bytes);
        break;
      case PROXY_MSG_PUT_REQ:  // acknowledged once the bytes are in the heap: the source's quiet waits for it
        rep.kind = PROXY_MSG_PUT_ACK;
        gpu::nic_copy(r.heap + m.roff, buf + sizeof m, m.len);
        break;
      case PROXY_MSG_GET_REQ:
        rep.kind = PROXY_MSG_GET_REP;
        rep.len = m.len;
        gpu::nic_copy(p.reply_buf.data() + sizeof rep, r.heap + m.roff, m.len);
        payload = m.len;
        break;
      default:
        fatal(GIO_ERR_TRANSPORT, "proxy thread", "PE %d sent a message of unknown kind %u", m.src, m.kind);
    }
    memcpy(p.reply_buf.data(), &rep, sizeof rep);
    p.fab->send(m.src, p.reply_buf.data(), sizeof rep + payload);
  }

  // Serves whatever arrived; true if anything did.
  bool serve_all() {
    bool any = false;
    while (p.fab->take_message([&](const uint8_t* b, size_t n) { serve(b, n); })) any = true;
    return any;
  }

  // ---- the source side: one request (header and payload already in send_buf) and its reply -----
  proxy_msg request(int pe, proxy_msg m, size_t payload, uint8_t* dst = nullptr) {
    m.src = r.my_pe;
    m.token = ++token;
    memcpy(p.send_buf.data(), &m, sizeof m);
    replied = false;
    get_dst = dst;
    p.fab->send(pe, p.send_buf.data(), sizeof m + payload);
    const auto t0 = std::chrono::steady_clock::now();
    // Peers' requests are served while waiting: two proxies may be waiting on each other.
    for (unsigned spins = 0; !replied; ++spins) {
      if (serve_all() || replied) continue;
      if (spins > 64) sched_yield();  // the peer's proxy may need this core to answer
      if ((spins & 255) == 0 && r.cfg.GIO_TIMEOUT_MS) {
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
        if ((uint64_t)ms > r.cfg.GIO_TIMEOUT_MS)
          fatal(GIO_ERR_TIMEOUT, "proxy thread", "PE %d's proxy did not answer request %llu (message kind %u, heap "
                "offset %llu) in %lld ms (GIO_TIMEOUT_MS=%llu): did it exit?", pe, (unsigned long long)m.token, m.kind,
                (unsigned long long)m.roff, (long long)ms, (unsigned long long)r.cfg.GIO_TIMEOUT_MS);
      }
    }
    token = 0;
    return reply;
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
    uint8_t* payload = p.send_buf.data() + sizeof(proxy_msg);
    if (p.heap_direct) {  // the target heap is host memory: one delivery-complete write per chunk
      const uint8_t* src = payload;
      if (c.local == GIO_PROXY_LOCAL_INLINE) {
        memcpy(payload, &c.value, 8);
        memcpy(payload + 8, &c.compare, 8);
      } else {
        src = local(q, slot, c);
      }
      for (uint64_t off = 0; off < c.len; off += kChunk)
        p.fab->write(c.pe, c.roff + off, src + off, c.len - off < kChunk ? c.len - off : kChunk);
      return;
    }
    // Staged: each chunk is copied into the send buffer (from GPU memory, a device-to-host copy)
    // and sent; the target's proxy copies it into its heap and acknowledges.
    for (uint64_t off = 0; off < c.len; off += p.chunk) {
      const uint64_t len = c.len - off < p.chunk ? c.len - off : p.chunk;
      if (c.local == GIO_PROXY_LOCAL_INLINE) {
        memcpy(payload, &c.value, 8);
        memcpy(payload + 8, &c.compare, 8);
      } else {
        gpu::nic_copy(payload, local(q, slot, c) + off, len);
      }
      proxy_msg m{};
      m.kind = PROXY_MSG_PUT_REQ;
      m.roff = c.roff + off;
      m.len = len;
      request(c.pe, m, len);
    }
  }

  void get(gio_proxy_ring_v1& q, uint32_t slot, const gio_proxy_cmd_v1& c) {
    if (c.local == GIO_PROXY_LOCAL_RESULT) __atomic_store_n(&q.result[slot], 0ull, __ATOMIC_RELAXED);
    uint8_t* dst = local(q, slot, c);
    if (p.heap_direct) {
      for (uint64_t off = 0; off < c.len; off += kChunk)
        p.fab->read(c.pe, c.roff + off, dst + off, c.len - off < kChunk ? c.len - off : kChunk);
      return;
    }
    for (uint64_t off = 0; off < c.len; off += p.chunk) {
      proxy_msg m{};
      m.kind = PROXY_MSG_GET_REQ;
      m.roff = c.roff + off;
      m.len = c.len - off < p.chunk ? c.len - off : p.chunk;
      request(c.pe, m, 0, dst + off);
    }
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
    return request(pe, m, 0).value;
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
          ex.execute(q, idx, c);
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
  } catch (const proxy::fabric_error& e) {
    fatal(GIO_ERR_TRANSPORT, "proxy thread", "%s", e.what());
  }
}

}  // namespace gio
