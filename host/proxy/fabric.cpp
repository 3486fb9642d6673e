// libfabric endpoint of the proxy transport (see fabric.h).
#include "host/proxy/fabric.h"

#include "host/backoff.h"
#include "host/proxy/shm_names.h"

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>

namespace gio {
namespace proxy {

namespace {

std::string fi_text(const char* what, int rc) {
  return std::string(what) + ": " + fi_strerror(rc < 0 ? -rc : rc);
}

// Every mode a provider may ask for is handled here: local descriptors (FI_MR_LOCAL), virtual or
// offset remote addresses (FI_MR_VIRT_ADDR), provider-chosen keys (FI_MR_PROV_KEY), binding the
// region to the endpoint (FI_MR_ENDPOINT), and registered memory being allocated (always true).
constexpr int kModes = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;

fi_datatype datatype(size_t bytes) { return bytes == 4 ? FI_UINT32 : FI_UINT64; }

}  // namespace

struct fabric::impl {
  std::string provider;
  int region = -1;  // shm: this endpoint's entry among the regions to remove on abort
  unsigned timeout_ms = 0;
  fi_info* info = nullptr;
  fid_fabric* fab = nullptr;
  fid_domain* dom = nullptr;
  fid_ep* ep = nullptr;
  fid_cq* cq = nullptr;
  fid_av* av = nullptr;
  fid_mr* mr = nullptr;
  void* desc = nullptr;
  uint8_t* base = nullptr;
  size_t size = 0;
  int modes = 0;
  std::vector<fi_addr_t> peers;
  std::vector<remote_region> regions;
  // The fetched value of an atomic lands here (registered once when FI_MR_LOCAL asks for it).
  uint64_t scratch[2] = {0, 0};
  fid_mr* scratch_mr = nullptr;
  void* scratch_desc = nullptr;
  struct local_reg {
    uint8_t* base;
    size_t size;
    fid_mr* mr;
  };
  std::vector<local_reg> locals;  // register_local's regions (FI_MR_LOCAL only)
  // Messages: posted receive buffers and the ones that arrived, oldest first.
  struct recv_slot {
    fi_context2 ctx;  // first: a completion's op_context is the slot
    uint8_t* buf = nullptr;  // the caller's memory (enable_messages): pinned, so copies from it run async
    size_t size = 0;
    fid_mr* mr = nullptr;
  };
  std::vector<std::unique_ptr<recv_slot>> recvs;
  std::deque<std::pair<recv_slot*, size_t>> arrived;
  void post_recv(recv_slot* r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
      const ssize_t rc = fi_recv(ep, r->buf, r->size, r->mr ? fi_mr_desc(r->mr) : nullptr,
                                 FI_ADDR_UNSPEC, &r->ctx);
      if (rc == 0) return;
      if (rc != -FI_EAGAIN) fail_op("fi_recv", -1, fi_text("fi_recv", (int)rc));
      (void)poll_one("fi_recv", -1);
      expired("fi_recv", -1, t0);
    }
  }
  std::mutex lock;  // one operation at a time: the completion wait below takes any completion

  void check(int rc, const char* what) {
    if (rc) throw fabric_error("GIO proxy (" + provider + "): " + fi_text(what, rc));
  }
  [[noreturn]] void fail_op(const char* op, int pe, const std::string& why) {
    throw fabric_error("GIO proxy (" + provider + "): " + op + " to PE " + std::to_string(pe) + ": " + why);
  }

  // Reads at most one completion: true if it is the caller's operation's. Receive completions are
  // queued in `arrived` for take_message (requests from peers arrive while we wait for our own).
  bool poll_one(const char* op, int pe) {
    fi_cq_msg_entry e;
    const ssize_t n = fi_cq_read(cq, &e, 1);
    if (n == 1) {
      if (!(e.flags & FI_RECV)) return true;
      arrived.push_back({(recv_slot*)e.op_context, e.len});
      return false;
    }
    if (n == -FI_EAVAIL) {
      fi_cq_err_entry err;
      std::memset(&err, 0, sizeof err);
      fi_cq_readerr(cq, &err, 0);
      fail_op(op, pe, std::string(fi_strerror(err.err)) + " (" +
                          fi_cq_strerror(cq, err.prov_errno, err.err_data, nullptr, 0) + ")");
    }
    if (n != -FI_EAGAIN) fail_op(op, pe, fi_text("fi_cq_read", (int)n));
    return false;
  }
  // Waits for the one outstanding operation's completion, bounded by timeout_ms.
  // The target's proxy must run for our operation to complete (providers here progress manually):
  // after a short spin, give up the core, which PEs sharing a few cores need.
  void wait(const char* op, int pe) {
    const auto t0 = std::chrono::steady_clock::now();
    backoff pace;  // host/backoff.h
    while (!poll_one(op, pe)) {
      pace.pause();
      expired(op, pe, t0);
    }
  }
  void expired(const char* op, int pe, std::chrono::steady_clock::time_point t0) {
    if (!timeout_ms) return;
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    if (waited.count() > (long long)timeout_ms)
      fail_op(op, pe, "no completion after " + std::to_string(waited.count()) + " ms (GIO_TIMEOUT_MS=" +
                          std::to_string(timeout_ms) + ")");
  }
  // Posts with `post` until the provider takes it (it answers -FI_EAGAIN while its queues are
  // full, and frees them as the completion queue is read), then waits for the completion.
  template <typename Post>
  void run(const char* op, int pe, Post post) {
    const auto t0 = std::chrono::steady_clock::now();
    backoff pace;  // the queues drain as the target's proxy runs, maybe on this core (host/backoff.h)
    for (;;) {
      const ssize_t rc = post();
      if (rc == 0) break;
      if (rc != -FI_EAGAIN) fail_op(op, pe, fi_text(op, (int)rc));
      (void)poll_one(op, pe);  // progress (nothing of ours is outstanding; arrivals are queued)
      pace.pause();
      expired(op, pe, t0);
    }
    wait(op, pe);
  }
  fi_rma_iov target(const char* op, int pe, uint64_t off, size_t n) {
    if (pe < 0 || pe >= (int)peers.size()) fail_op(op, pe, "no such peer (" + std::to_string(peers.size()) + " PEs)");
    const remote_region& r = regions[pe];
    fi_rma_iov t;
    t.addr = ((modes & FI_MR_VIRT_ADDR) ? r.base : 0) + off;
    t.len = n;
    t.key = r.key;
    return t;
  }
  // Registers [p, p + n). The key is unpredictable (getrandom, within the provider's key size), so
  // a process that can reach this endpoint but was not given the key through the bootstrap (every
  // PE of the job is, proxy_connect.cpp) cannot write the heap; where the provider picks keys
  // itself (FI_MR_PROV_KEY), its own. A key already taken in the domain is drawn again.
  fid_mr* reg(void* p, size_t n, const char* what) {
    fid_mr* r = nullptr;
    int rc = -FI_ENOKEY;
    for (int attempt = 0; attempt < 8 && rc == -FI_ENOKEY; ++attempt)
      rc = fi_mr_reg(dom, p, n, FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE, 0, random_key(), 0, &r, nullptr);
    check(rc, what);
    if (modes & FI_MR_ENDPOINT) {
      check(fi_mr_bind(r, &ep->fid, 0), "fi_mr_bind");
      check(fi_mr_enable(r), "fi_mr_enable");
    }
    return r;
  }
  uint64_t random_key() const {
    uint64_t k = 0;
    if (getrandom(&k, sizeof k, 0) != (ssize_t)sizeof k)
      throw fabric_error("GIO proxy (" + provider + "): getrandom for a memory key failed: " + strerror(errno));
    const size_t bytes = info ? info->domain_attr->mr_key_size : 8;
    if (bytes > 0 && bytes < 8) k &= (1ull << (8 * bytes)) - 1;
    return k;
  }
  void rma(bool is_write, int pe, uint64_t off, void* buf, size_t n);
  // The local descriptor of [p, p + n): the region's, or none where the provider needs none.
  void* local_desc(const char* op, int pe, const void* p, size_t n) {
    if (!(modes & FI_MR_LOCAL)) return nullptr;
    const uint8_t* b = (const uint8_t*)p;
    if (mr && b >= base && b + n <= base + size) return desc;
    for (const local_reg& l : locals)
      if (b >= l.base && b + n <= l.base + l.size) return fi_mr_desc(l.mr);
    fail_op(op, pe, "the local buffer is outside the registered region, and this provider needs one (FI_MR_LOCAL)");
  }
};

fabric::fabric(const std::string& provider, unsigned timeout_ms) : d_(new impl) {
  d_->timeout_ms = timeout_ms;
  fi_info* hints = fi_allocinfo();
  if (!hints) throw fabric_error("GIO proxy: fi_allocinfo failed");
  hints->caps = FI_RMA | FI_ATOMIC | FI_MSG;
  hints->ep_attr->type = FI_EP_RDM;
  hints->domain_attr->mr_mode = kModes;
  hints->domain_attr->threading = FI_THREAD_SAFE;
  hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
  if (!provider.empty()) hints->fabric_attr->prov_name = strdup(provider.c_str());
  const int rc = fi_getinfo(FI_VERSION(1, 9), nullptr, nullptr, 0, hints, &d_->info);
  fi_freeinfo(hints);
  if (rc)
    throw fabric_error("GIO proxy: no libfabric provider " + (provider.empty() ? std::string("") : "\"" + provider + "\" ") +
                       "offers reliable RMA and atomics: " + fi_text("fi_getinfo", rc));
  fi_info* i = d_->info;
  d_->provider = i->fabric_attr->prov_name;
  d_->modes = i->domain_attr->mr_mode;
  d_->check(fi_fabric(i->fabric_attr, &d_->fab, nullptr), "fi_fabric");
  // The domain takes the info as fi_getinfo filled it, authorization key included: where the
  // provider has one (cxi: the service, VNI, its launcher granted this job), only endpoints of
  // that service reach ours, and regions are registered under it. GIO adds none of its own: a
  // provider's key is what its fabric enforces, and shm and tcp have none.
  d_->check(fi_domain(d_->fab, i, &d_->dom, nullptr), "fi_domain");
  fi_cq_attr cqa;
  std::memset(&cqa, 0, sizeof cqa);
  cqa.format = FI_CQ_FORMAT_MSG;
  d_->check(fi_cq_open(d_->dom, &cqa, &d_->cq, nullptr), "fi_cq_open");
  fi_av_attr ava;
  std::memset(&ava, 0, sizeof ava);
  ava.type = FI_AV_TABLE;
  d_->check(fi_av_open(d_->dom, &ava, &d_->av, nullptr), "fi_av_open");
  d_->check(fi_endpoint(d_->dom, i, &d_->ep, nullptr), "fi_endpoint");
  d_->check(fi_ep_bind(d_->ep, &d_->cq->fid, FI_TRANSMIT | FI_RECV), "fi_ep_bind (completion queue)");
  d_->check(fi_ep_bind(d_->ep, &d_->av->fid, 0), "fi_ep_bind (address vector)");
  if (d_->provider == "shm") {
    // shm names its region in /dev/shm after the PID by default ("<pid>:<domain>:<endpoint>"). A
    // process killed before closing its endpoint leaves that region behind, and a later process
    // given the same PID then fails fi_enable (EBUSY, or SIGBUS on a truncated leftover). A name
    // no earlier process can have taken, which also says whose it is (shm_names.h).
    remove_dead_shm_regions("/dev/shm");
    const std::string name = new_shm_name();
    d_->check(fi_setname(&d_->ep->fid, (void*)name.c_str(), name.size() + 1), "fi_setname (the shm region's name)");
    d_->region = remember_shm_name(name);
  }
  d_->check(fi_enable(d_->ep), "fi_enable");
}

void fabric::release_name() {
  if (d_->region < 0) return;
  release_shm_name(d_->region);
  d_->region = -1;
}

fabric::~fabric() {
  // The endpoint first: it owns the posted receives that name the buffers closed after it.
  if (d_->ep) fi_close(&d_->ep->fid);
  d_->ep = nullptr;
  forget_shm_name(d_->region);
  for (auto& r : d_->recvs)
    if (r->mr) fi_close(&r->mr->fid);
  for (impl::local_reg& l : d_->locals) fi_close(&l.mr->fid);
  if (d_->scratch_mr) fi_close(&d_->scratch_mr->fid);
  if (d_->mr) fi_close(&d_->mr->fid);
  if (d_->ep) fi_close(&d_->ep->fid);
  if (d_->av) fi_close(&d_->av->fid);
  if (d_->cq) fi_close(&d_->cq->fid);
  if (d_->dom) fi_close(&d_->dom->fid);
  if (d_->fab) fi_close(&d_->fab->fid);
  if (d_->info) fi_freeinfo(d_->info);
}

const std::string& fabric::provider() const { return d_->provider; }

std::vector<uint8_t> fabric::name() const {
  size_t len = 0;
  (void)fi_getname(&d_->ep->fid, nullptr, &len);
  std::vector<uint8_t> n(len);
  d_->check(fi_getname(&d_->ep->fid, n.data(), &len), "fi_getname");
  n.resize(len);
  return n;
}

void fabric::insert_peers(const std::vector<std::vector<uint8_t>>& names) {
  d_->peers.assign(names.size(), FI_ADDR_NOTAVAIL);
  d_->regions.assign(names.size(), remote_region{});
  for (size_t pe = 0; pe < names.size(); ++pe) {
    const int n = fi_av_insert(d_->av, names[pe].data(), 1, &d_->peers[pe], 0, nullptr);
    if (n != 1) d_->fail_op("fi_av_insert", (int)pe, "the peer's address was not accepted");
  }
}

remote_region fabric::register_region(void* p, size_t n) {
  if (d_->mr) throw fabric_error("GIO proxy (" + d_->provider + "): a region is registered already");
  d_->mr = d_->reg(p, n, "fi_mr_reg (the symmetric heap)");
  d_->desc = fi_mr_desc(d_->mr);
  d_->base = (uint8_t*)p;
  d_->size = n;
  if (d_->modes & FI_MR_LOCAL) {
    d_->scratch_mr = d_->reg(d_->scratch, sizeof d_->scratch, "fi_mr_reg (atomic results)");
    d_->scratch_desc = fi_mr_desc(d_->scratch_mr);
  }
  remote_region r;
  r.key = fi_mr_key(d_->mr);
  r.base = (uint64_t)(uintptr_t)p;
  return r;
}

void fabric::register_local(void* p, size_t n) {
  if (!(d_->modes & FI_MR_LOCAL)) return;
  fid_mr* m = d_->reg(p, n, "fi_mr_reg (a local staging buffer)");
  d_->locals.push_back({(uint8_t*)p, n, m});
}

bool fabric::needs_local_registration() const { return (d_->modes & FI_MR_LOCAL) != 0; }
bool fabric::provider_keys() const { return (d_->modes & FI_MR_PROV_KEY) != 0; }
size_t fabric::auth_key_bytes() const { return d_->info->domain_attr->auth_key_size; }

void fabric::set_peer_region(int pe, const remote_region& r) {
  if (pe < 0 || pe >= (int)d_->regions.size()) d_->fail_op("set_peer_region", pe, "no such peer");
  d_->regions[pe] = r;
}

// One RMA message to peer pe: a write completes when the bytes are in the target's memory
// (delivery complete), a read when they are in ours.
void fabric::impl::rma(bool is_write, int pe, uint64_t off, void* buf, size_t n) {
  const char* op = is_write ? "fi_writemsg" : "fi_readmsg";
  fi_rma_iov t = target(op, pe, off, n);
  iovec v{buf, n};
  void* d = local_desc(op, pe, buf, n);
  fi_msg_rma m;
  std::memset(&m, 0, sizeof m);
  m.msg_iov = &v;
  m.desc = &d;
  m.iov_count = 1;
  m.addr = peers[pe];
  m.rma_iov = &t;
  m.rma_iov_count = 1;
  m.context = this;
  if (is_write) run(op, pe, [&] { return fi_writemsg(ep, &m, FI_DELIVERY_COMPLETE | FI_COMPLETION); });
  else run(op, pe, [&] { return fi_readmsg(ep, &m, FI_COMPLETION); });
}

void fabric::write(int pe, uint64_t off, const void* src, size_t n) {
  std::lock_guard<std::mutex> g(d_->lock);
  d_->rma(true, pe, off, const_cast<void*>(src), n);
}

void fabric::read(int pe, uint64_t off, void* dst, size_t n) {
  std::lock_guard<std::mutex> g(d_->lock);
  d_->rma(false, pe, off, dst, n);
}

uint64_t fabric::atomic(int pe, uint64_t off, amo_kind op, size_t bytes, uint64_t operand, uint64_t compare) {
  std::lock_guard<std::mutex> g(d_->lock);
  const char* what = "fi_atomic";
  if (bytes != 4 && bytes != 8) d_->fail_op(what, pe, "atomics are 4 or 8 bytes, not " + std::to_string(bytes));
  fi_op fop = FI_ATOMIC_WRITE;
  bool fetch = true;
  switch (op) {
    case amo_kind::set: fop = FI_ATOMIC_WRITE; fetch = false; break;
    case amo_kind::swap: fop = FI_ATOMIC_WRITE; break;
    case amo_kind::fetch: fop = FI_ATOMIC_READ; break;
    case amo_kind::add: fop = FI_SUM; fetch = false; break;
    case amo_kind::fetch_add: fop = FI_SUM; break;
    case amo_kind::band: fop = FI_BAND; fetch = false; break;
    case amo_kind::fetch_band: fop = FI_BAND; break;
    case amo_kind::bor: fop = FI_BOR; fetch = false; break;
    case amo_kind::fetch_bor: fop = FI_BOR; break;
    case amo_kind::bxor: fop = FI_BXOR; fetch = false; break;
    case amo_kind::fetch_bxor: fop = FI_BXOR; break;
    case amo_kind::cswap: fop = FI_CSWAP; break;
  }
  fi_rma_ioc t;
  const fi_rma_iov r = d_->target(what, pe, off, bytes);
  t.addr = r.addr;
  t.count = 1;
  t.key = r.key;
  // Operand, compare value and result in host order, in the low bytes of 8-byte words.
  uint64_t opnd = operand, cmp = compare;
  uint32_t opnd32 = (uint32_t)operand, cmp32 = (uint32_t)compare;
  fi_ioc v{bytes == 4 ? (void*)&opnd32 : (void*)&opnd, 1};
  fi_ioc c{bytes == 4 ? (void*)&cmp32 : (void*)&cmp, 1};
  d_->scratch[0] = 0;
  fi_ioc res{d_->scratch, 1};
  void* no_desc = nullptr;
  fi_msg_atomic m;
  std::memset(&m, 0, sizeof m);
  m.msg_iov = &v;
  m.desc = &no_desc;  // operands travel inline in the command; no registration needed
  m.iov_count = 1;
  m.addr = d_->peers[pe];
  m.rma_iov = &t;
  m.rma_iov_count = 1;
  m.datatype = datatype(bytes);
  m.op = fop;
  m.context = d_.get();
  void* rdesc = d_->scratch_desc;
  void* cdesc = nullptr;
  if (op == amo_kind::cswap) {
    d_->run("fi_compare_atomicmsg", pe, [&] {
      return fi_compare_atomicmsg(d_->ep, &m, &c, &cdesc, 1, &res, &rdesc, 1, FI_COMPLETION);
    });
  } else if (fetch) {
    d_->run("fi_fetch_atomicmsg", pe,
            [&] { return fi_fetch_atomicmsg(d_->ep, &m, &res, &rdesc, 1, FI_COMPLETION); });
  } else {
    d_->run("fi_atomicmsg", pe,
            [&] { return fi_atomicmsg(d_->ep, &m, FI_DELIVERY_COMPLETE | FI_COMPLETION); });
    return 0;
  }
  if (bytes == 4) {
    uint32_t v32;
    std::memcpy(&v32, d_->scratch, 4);
    return v32;
  }
  return d_->scratch[0];
}

void fabric::progress() {
  // An operation in flight progresses the endpoint itself, and a read here could take its
  // completion: only when none is.
  std::unique_lock<std::mutex> g(d_->lock, std::try_to_lock);
  if (!g.owns_lock()) return;
  (void)d_->poll_one("progress", -1);
}

void fabric::enable_messages(uint8_t* mem, size_t max_bytes, unsigned depth) {
  std::lock_guard<std::mutex> g(d_->lock);
  for (unsigned i = 0; i < depth; ++i) {
    d_->recvs.emplace_back(new impl::recv_slot);
    impl::recv_slot* r = d_->recvs.back().get();
    r->buf = mem + (size_t)i * max_bytes;
    r->size = max_bytes;
    if (d_->modes & FI_MR_LOCAL) r->mr = d_->reg(r->buf, max_bytes, "fi_mr_reg (a receive buffer)");
    d_->post_recv(r);
  }
}

void fabric::send(int pe, const void* buf, size_t n) {
  std::lock_guard<std::mutex> g(d_->lock);
  if (pe < 0 || pe >= (int)d_->peers.size()) d_->fail_op("fi_send", pe, "no such peer");
  void* desc = d_->local_desc("fi_send", pe, buf, n);
  d_->run("fi_send", pe, [&] { return fi_send(d_->ep, buf, n, desc, d_->peers[pe], d_.get()); });
}

bool fabric::take_message(const std::function<bool(const uint8_t*, size_t)>& fn) {
  std::pair<impl::recv_slot*, size_t> m;
  {
    std::lock_guard<std::mutex> g(d_->lock);
    if (d_->arrived.empty()) (void)d_->poll_one("progress", -1);
    if (d_->arrived.empty()) return false;
    m = d_->arrived.front();
    d_->arrived.pop_front();
  }
  if (!fn(m.first->buf, m.second)) return true;  // unlocked: a handler sends its reply
  std::lock_guard<std::mutex> g(d_->lock);
  d_->post_recv(m.first);
  return true;
}

void fabric::repost(const uint8_t* buf) {
  std::lock_guard<std::mutex> g(d_->lock);
  for (auto& r : d_->recvs)
    if (r->buf == buf) return d_->post_recv(r.get());
  d_->fail_op("fi_recv", -1, "repost of a buffer that is not a receive buffer");
}

}  // namespace proxy
}  // namespace gio
