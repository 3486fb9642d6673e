// gio-gda-post: GPU-side cost of posting puts on the gda path, from the call to the doorbell
// write, measured with the GPU clock. Templated posting (GIO's post(): the slot already holds the
// put's static fields; the device writes the index word, raddr, length and address) against a full
// build of the same WQE (every field written per operation, as NVSHMEM's IBGDA does), and against a
// queue dedicated to puts (no per-slot kind or hold bookkeeping); the two variants live in
// post_variants.h, out of the runtime. Scopes:
//   thread - one lane of the wave posts (the others have left): a batch of one WQE;
//   wave   - every lane of one wave posts its own put at once (thread-scope calls): the lanes are
//            aggregated into one batch, one reservation and one doorbell (cycles per WQE and per call);
//   wg     - the whole work-group enters, one lane posts (the cooperative scopes' path).
// 1 and 64 work-groups posting at once, each to its own queue; queues (the rings: SQ, doorbell
// record, doorbell word) in device memory or in pinned host memory (descriptors and bookkeeping
// always in device memory). Device rings are measured twice: as a ring in GPU memory is posted to
// (queue_mem "device": the queue says GIO_GDA_Q_NIC_MEM_GPU, so the NIC's part is ordered at device
// scope) and with the system-scope ordering host rings need ("device-sys"). No NIC consumes these
// queues: each measurement posts fewer WQEs than a queue holds, so back-pressure never enters the
// number. Then the step breakdown probe (post_probe.h) on each kind of queue memory.
//   gio-gda-post [--posts N] [--reps R] [--iters I] [--json FILE]
#include <shmem.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "apps/gda_post/post_cost.h"
#include "apps/gda_post/post_probe.h"
#include "apps/gda_post/post_variants.h"
#include "device/gda/gda_post.h"
#include "runtime/gda_tmpl.h"

using namespace post_cost;

namespace {
enum build { BUILD_TEMPLATE, BUILD_FULL, BUILD_DEDICATED };
const char* const kBuildName[] = {"tmpl", "full", "dedic"};
const char* const kBuildJson[] = {"template", "full", "dedicated"};

template <int BUILD>
__device__ void post_one(gio_gda_queue_v1* q, const gio::dev::gda::wqe_args& a) {
  if (BUILD == BUILD_FULL)
    gio::bench::post_full("gio-gda-post", q, GIO_GDA_T_PUT, a);
  else if (BUILD == BUILD_DEDICATED)
    gio::bench::post_dedicated_put("gio-gda-post", q, a);
  else
    gio::dev::gda::post("gio-gda-post", q, GIO_GDA_T_PUT, a);
}

// Lane 0 of each work-group reports the cycles of its `posts` calls.
template <int BUILD, int SCOPE>
__global__ void post_kernel(gio_gda_queue_v1* queues, const uint8_t* src, uint64_t raddr_base, int posts,
                            unsigned long long* cycles) {
  gio_gda_queue_v1* q = &queues[blockIdx.x];
  time_posts<SCOPE>(posts, cycles, [&](uint64_t k) {
    gio::dev::gda::wqe_args a{raddr_base + k * 64, (uint64_t)(uintptr_t)(src + k * 64), 64, 0, 0, 0, false};
    post_one<BUILD>(q, a);
  });
}

template <int BUILD>
void (*kernel_for(int scope))(gio_gda_queue_v1*, const uint8_t*, uint64_t, int, unsigned long long*) {
  return scope == SCOPE_WAVE ? post_kernel<BUILD, SCOPE_WAVE>
         : scope == SCOPE_WG ? post_kernel<BUILD, SCOPE_WG>
                             : post_kernel<BUILD, SCOPE_THREAD>;
}

// `n` queues: rings (what a NIC reads) in device or pinned host memory; descriptors and the
// per-slot bookkeeping in device memory, as host/gda/gda_connect.cpp lays them out.
struct queues {
  bool host_mem;
  int n;
  uint32_t flags;
  uint8_t* rings = nullptr;
  uint8_t* dev = nullptr;
  gio_gda_queue_v1* desc = nullptr;
  std::vector<uint8_t> ring_image, dev_image;
  queues(bool host, int count, uint32_t queue_flags) : host_mem(host), n(count), flags(queue_flags) {
    const size_t ring = gio::gda_ring_bytes(kSlots), book = gio::gda_book_bytes(kSlots);
    const size_t desc_bytes = (n * sizeof(gio_gda_queue_v1) + 4095) / 4096 * 4096;
    if (host_mem)
      CHECK(hipHostMalloc((void**)&rings, n * ring, 0));
    else
      CHECK(hipMalloc((void**)&rings, n * ring));
    CHECK(hipMalloc((void**)&dev, desc_bytes + n * book));
    ring_image.assign(n * ring, 0);
    dev_image.assign(desc_bytes + n * book, 0);
    desc = (gio_gda_queue_v1*)dev;
    std::vector<gio_gda_queue_v1> d(n);
    for (int i = 0; i < n; ++i) {
      gio_gda_queue_v1& q = d[i];
      memset(&q, 0, sizeof q);
      q.qpn = 0x100 + i;
      q.flags = flags;
      // Build the templates in the host images, then point the descriptor at the real memory.
      gio::gda_queue_place(q, ring_image.data() + i * ring, dev_image.data() + desc_bytes + i * book, kSlots);
      gio::gda_build_templates(q, 0x47000001u, 0x47000101u, 0x51000002u);
      gio::gda_prefill_slots(q);
      gio::gda_queue_place(q, rings + i * ring, dev + desc_bytes + i * book, kSlots);
    }
    memcpy(dev_image.data(), d.data(), n * sizeof(gio_gda_queue_v1));
  }
  void reset() {
    CHECK(hipMemcpy(rings, ring_image.data(), ring_image.size(), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dev, dev_image.data(), dev_image.size(), hipMemcpyHostToDevice));
  }
  ~queues() {
    host_mem ? (void)hipHostFree(rings) : (void)hipFree(rings);
    (void)hipFree(dev);
  }
};

}  // namespace

// Queue memory kinds: rings in device memory ordered as GPU-memory rings are, the same ordered at
// system scope, rings in pinned host memory.
enum mem { MEM_DEVICE, MEM_DEVICE_SYS, MEM_HOST, MEM_COUNT };
const char* const kMemName[] = {"device", "device-sys", "host"};
const char* const kOrderName[] = {"gpu", "sys", "sys"};

// The probe's rows: median, min and max cycles of each step over `iters` iterations (the first 8
// left out as warm-up), one lane on queue 0 (the wave steps: every lane of one wave).
void run_probe(queues& Q, int m, int iters, int wave, unsigned long long* out, FILE* json, const hipDeviceProp_t& prop) {
  using namespace post_probe;
  printf("\nstep breakdown probe, %s rings (NIC order at %s scope), one lane unless marked wave; cycles per "
         "iteration\n", kMemName[m], kOrderName[m]);
  printf("  %-52s %10s %10s %10s\n", "step", "median", "min", "max");
  std::vector<unsigned long long> c(iters);
  for (int s = 0; s < S_COUNT; ++s) {
    const int it = wave_step(s) ? std::min(iters, (int)kSlots / wave) : iters;
    Q.reset();
    hipLaunchKernelGGL(probe_kernel, dim3(1), dim3(wave_step(s) ? wave : 1), 0, 0, Q.desc, s, it, out);
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    CHECK(hipMemcpy(c.data(), out, it * sizeof(c[0]), hipMemcpyDeviceToHost));
    const int skip = it > 16 ? 8 : 0;
    std::vector<double> v(c.begin() + skip, c.begin() + it);
    std::sort(v.begin(), v.end());
    const double med = median(v);
    printf("  %-52s %10.1f %10.1f %10.1f\n", kStepName[s], med, v.front(), v.back());
    if (json)
      fprintf(json,
              "{\"bench\":\"gda_post_probe\",\"queue_mem\":\"%s\",\"nic_order\":\"%s\",\"step\":\"%s\","
              "\"lanes\":%d,\"iters\":%d,\"metric\":\"cycles\",\"median\":%.2f,\"min\":%.2f,\"max\":%.2f,"
              "\"device\":\"%s\",\"platform\":\"%s\"}\n",
              kMemName[m], kOrderName[m], kStepName[s], wave_step(s) ? wave : 1, it - skip, med, v.front(), v.back(),
              prop.name, GIO_PLATFORM_NAME);
  }
}

int main(int argc, char** argv) {
  int posts = 1024, reps = 9, iters = 512;
  const char* json = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--posts" && i + 1 < argc) posts = std::min(atoi(argv[++i]), (int)kSlots);
    else if (a == "--reps" && i + 1 < argc) reps = atoi(argv[++i]);
    else if (a == "--iters" && i + 1 < argc) iters = std::max(16, std::min(atoi(argv[++i]), (int)kSlots));
    else if (a == "--json" && i + 1 < argc) json = argv[++i];
    else {
      fprintf(stderr, "usage: gio-gda-post [--posts N<=%u] [--reps R] [--iters I<=%u] [--json FILE]\n", kSlots, kSlots);
      return 2;
    }
  }
  shmem_init();
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0));
  const int khz = clock_khz();
  const int wave = prop.warpSize;
  // A wave posts `wave` WQEs per call; keep every measurement inside one ring.
  const int wave_posts = std::min(posts, (int)kSlots / wave);
  uint8_t* src;
  CHECK(hipMalloc((void**)&src, (size_t)kSlots * 64));
  unsigned long long* cycles;
  CHECK(hipMalloc((void**)&cycles, (size_t)std::max(64, iters) * sizeof(unsigned long long)));
  FILE* out = json ? fopen(json, "a") : nullptr;
  printf("%-10s %-6s %-6s %4s %5s  %14s %14s %14s  %s\n", "queues", "scope", "build", "wgs", "wqes", "cycles/call",
         "cycles/wqe", "ns/wqe", "(median of reps)");
  for (int m = 0; m < MEM_COUNT; ++m)
    for (int wgs : {1, 64}) {
      const bool host_mem = m == MEM_HOST;
      queues Q(host_mem, wgs, m == MEM_DEVICE ? GIO_GDA_Q_NIC_MEM_GPU : 0u);
      for (int sc : {SCOPE_THREAD, SCOPE_WAVE, SCOPE_WG})
        for (int build = 0; build < 3; ++build) {
          const int n_posts = sc == SCOPE_WAVE ? wave_posts : posts;
          const int per_call = sc == SCOPE_WAVE ? wave : 1;  // WQEs one call of the kernel's loop posts
          const int threads = sc == SCOPE_WG ? 256 : wave;
          auto k = build == BUILD_FULL        ? kernel_for<BUILD_FULL>(sc)
                   : build == BUILD_DEDICATED ? kernel_for<BUILD_DEDICATED>(sc)
                                              : kernel_for<BUILD_TEMPLATE>(sc);
          const std::vector<double> per = per_call_cycles(reps, wgs, n_posts, cycles, [&] {
            Q.reset();
            hipLaunchKernelGGL(k, dim3(wgs), dim3(threads), 0, 0, Q.desc, src, 0x10000ull, n_posts, cycles);
          });
          const double med = median(per), wqe = med / per_call, ns = khz ? wqe / (khz / 1e6) : 0;
          printf("%-10s %-6s %-6s %4d %5d  %14.1f %14.1f %14.1f  min %.1f max %.1f cycles/call\n",
                 kMemName[m], kScopeName[sc], kBuildName[build], wgs, per_call, med, wqe, ns,
                 per.front(), per.back());
          // "median" stays cycles per post (per WQE) as before; a wave's call posts `wave` WQEs.
          if (out)
            fprintf(out,
                    "{\"bench\":\"gda_post_cost\",\"queue_mem\":\"%s\",\"nic_order\":\"%s\",\"scope\":\"%s\",\"build\":\"%s\",\"work_groups\":%d,"
                    "\"posts\":%d,\"wqes_per_call\":%d,\"reps\":%d,\"metric\":\"cycles_per_post\",\"median\":%.2f,"
                    "\"min\":%.2f,\"max\":%.2f,\"cycles_per_call\":%.2f,\"ns_per_post\":%.2f,\"device\":\"%s\","
                    "\"platform\":\"%s\"}\n",
                    kMemName[m], kOrderName[m], kScopeName[sc], kBuildJson[build], wgs, n_posts, per_call, reps,
                    wqe, per.front() / per_call, per.back() / per_call, med, ns, prop.name, GIO_PLATFORM_NAME);
        }
    }
  for (int m = 0; m < MEM_COUNT; ++m) {
    queues Q(m == MEM_HOST, 1, m == MEM_DEVICE ? GIO_GDA_Q_NIC_MEM_GPU : 0u);
    run_probe(Q, m, iters, wave, cycles, out, prop);
  }
  if (out) fclose(out);
  CHECK(hipFree(src));
  CHECK(hipFree(cycles));
  shmem_finalize();
  return 0;
}
