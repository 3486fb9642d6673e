// host/driver/driver_probe.cpp against a fake /dev and /sys and stubbed ioctls: what it detects on
// a stock kernel, with the KFD patch, with gio_iomem, and how it falls back when an interface is
// missing or answers nonsense (driver-patches/ is compile-tested only: no AMD GPU here).
#include "host/driver/driver_probe.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "driver-patches/amdgpu/uapi/gio_kfd.h"
#include "driver-patches/peer-mem/uapi/gio_iomem.h"

namespace {

using gio::drv::caps;
using gio::drv::flush_via;

constexpr unsigned long kKfdGetVersion = _IOR('K', 0x01, uint32_t[2]);
const char* kBdf = "0000:c1:00.0";  // bus 0xc1, devfn 0: location_id 0xc100 = 49408

// A fake machine: which device nodes exist, how each ioctl answers, and what was asked.
struct fake {
  std::string root;
  bool kfd = false, kfd_patched = false, iomem = false;
  uint32_t export_version = GIO_KFD_EXPORT_VERSION;
  uint64_t export_size = 4096, export_offset = 0;
  int export_errno = 0;
  kfd_ioctl_gio_export_dmabuf_args last_export{};
  gio_iomem_export last_iomem{};
  std::map<int, std::string> open_fds;  // fd -> device name
  std::set<int> exported;               // dma-buf fds handed out (dups of /dev/null) and not yet closed

  fake() {
    char tmpl[] = "/tmp/gio-drv-XXXXXX";
    root = mkdtemp(tmpl);
    mkdir((root + "/dev").c_str(), 0755);
  }
  ~fake() {
    for (int fd : exported) ::close(fd);
    std::string cmd = "rm -rf '" + root + "'";
    (void)!system(cmd.c_str());
  }
  void node(const char* name) { std::ofstream(root + "/dev/" + name) << ""; }
  void write(const std::string& rel, const std::string& text) {
    std::string dir = root;
    for (size_t at = 0, next; (next = rel.find('/', at)) != std::string::npos; at = next + 1)
      mkdir((dir += "/" + rel.substr(at, next - at)).c_str(), 0755);
    std::ofstream(root + "/" + rel) << text;
  }
  // KFD topology: node 0 a CPU (gpu_id 0), node 1 the GPU at kBdf with gpu_id 43690.
  void topology() {
    const std::string t = "sys/devices/virtual/kfd/kfd/topology/nodes/";
    write(t + "0/properties", "cpu_cores_count 64\nsimd_count 0\nlocation_id 0\ndomain 0\n");
    write(t + "0/gpu_id", "0\n");
    write(t + "1/properties", "cpu_cores_count 0\nsimd_count 440\nlocation_id 49408\ndomain 0\n");
    write(t + "1/gpu_id", "43690\n");
  }
  // /sys/bus/pci/devices/<bdf>/resource: six BARs and the ROM, BAR 5 of `bar5_bytes`.
  void resource(uint64_t bar5_bytes) {
    char line[128];
    std::string text;
    for (int i = 0; i < 7; ++i) {
      uint64_t start = 0, end = 0, flags = 0;
      if (i == 0) start = 0x38000000000ull, end = start + (16ull << 30) - 1, flags = 0x14220c;
      if (i == 5) start = 0xf0000000ull, end = start + bar5_bytes - 1, flags = 0x40200;
      snprintf(line, sizeof line, "0x%016llx 0x%016llx 0x%016llx\n", (unsigned long long)start,
               (unsigned long long)end, (unsigned long long)flags);
      text += line;
    }
    write(std::string("sys/bus/pci/devices/") + kBdf + "/resource", text);
  }

  // A KFD with the patch and its topology; what the probe makes of it.
  caps patched_kfd() {
    node("kfd");
    kfd = kfd_patched = true;
    topology();
    return gio::drv::probe(ops());
  }

  gio::drv::sys_ops ops() {
    gio::drv::sys_ops s;
    s.dev_root = root + "/dev";
    s.sys_root = root + "/sys";
    s.open = [this](const char* p, int f) {
      int fd = ::open(p, f);
      if (fd >= 0) open_fds[fd] = strrchr(p, '/') + 1;
      return fd;
    };
    s.close = [this](int fd) {
      open_fds.erase(fd);
      exported.erase(fd);
      return ::close(fd);
    };
    s.ioctl = [this](int fd, unsigned long req, void* arg) { return ioctl(fd, req, arg); };
    return s;
  }
  int fail(int e) { return errno = e, -1; }
  int new_dmabuf() {
    int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    exported.insert(fd);
    return fd;
  }
  int ioctl(int fd, unsigned long req, void* arg) {
    const std::string dev = open_fds.count(fd) ? open_fds[fd] : "";
    if (dev == "kfd") {
      if (!kfd) return fail(ENOTTY);
      if (req == kKfdGetVersion) {
        uint32_t* v = (uint32_t*)arg;
        v[0] = 1, v[1] = 11;
        return 0;
      }
      if (req == AMDKFD_IOC_GIO_EXPORT_DMABUF) {
        if (!kfd_patched) return fail(ENOTTY);  // what 6.1's kfd_ioctl answers past its table
        auto* a = (kfd_ioctl_gio_export_dmabuf_args*)arg;
        last_export = *a;
        a->version = export_version;
        if (a->what == GIO_KFD_EXPORT_PROBE) return a->dmabuf_fd = -1, 0;
        if (export_errno) return fail(export_errno);
        if (a->gpu_id != 43690) return fail(EINVAL);
        a->dmabuf_fd = new_dmabuf(), a->size = export_size, a->offset = export_offset;
        return 0;
      }
      return fail(ENOTTY);
    }
    if (dev == "gio_iomem") {
      if (req == GIO_IOMEM_GET_VERSION) return *(uint32_t*)arg = GIO_IOMEM_VERSION, 0;
      if (req == GIO_IOMEM_EXPORT) {
        auto* e = (gio_iomem_export*)arg;
        last_iomem = *e;
        e->fd = new_dmabuf();
        return 0;
      }
      return fail(ENOTTY);
    }
    return fail(ENOTTY);
  }
};

TEST(DriverProbe, StockMachineWithoutAmdOffersNothingAndSaysWhy) {
  fake f;
  caps c = gio::drv::probe(f.ops());
  EXPECT_FALSE(c.kfd);
  EXPECT_FALSE(c.kfd_export);
  EXPECT_FALSE(c.iomem);
  EXPECT_EQ(c.flush, flush_via::none);
  EXPECT_NE(c.kfd_why.find("/dev/kfd: No such file or directory"), std::string::npos) << c.kfd_why;
  EXPECT_NE(c.iomem_why.find("gio_iomem not loaded"), std::string::npos) << c.iomem_why;
  const std::string d = gio::drv::describe(c);
  EXPECT_NE(d.find("driver: NIC flush-page registration: none"), std::string::npos) << d;
  EXPECT_TRUE(f.open_fds.empty()) << "every probe opens and closes";
  gio::drv::export_result r;
  std::string why;
  EXPECT_FALSE(gio::drv::export_flush_page(f.ops(), c, kBdf, &r, &why));
  EXPECT_EQ(r.fd, -1);
  EXPECT_NE(why.find("none"), std::string::npos) << why;
}

TEST(DriverProbe, UnpatchedKfdIsSeenAsSuchAndFallsBack) {
  fake f;
  f.node("kfd");
  f.kfd = true;
  caps c = gio::drv::probe(f.ops());
  EXPECT_TRUE(c.kfd);
  EXPECT_EQ(c.kfd_major, 1u);
  EXPECT_EQ(c.kfd_minor, 11u);
  EXPECT_FALSE(c.kfd_export);
  EXPECT_NE(c.export_why.find("ENOTTY"), std::string::npos) << c.export_why;
  EXPECT_EQ(c.flush, flush_via::none);
  EXPECT_EQ(f.last_export.what, 0u) << "only the probe may have been asked";
  gio::drv::export_result r;
  std::string why;
  EXPECT_FALSE(gio::drv::export_vram(f.ops(), c, kBdf, (void*)0x7000, &r, &why));
  EXPECT_NE(why.find("ENOTTY"), std::string::npos) << why;
}

TEST(DriverProbe, PatchedKfdExportsTheFlushPageAndVram) {
  fake f;
  caps c = f.patched_kfd();
  ASSERT_TRUE(c.kfd_export) << c.export_why;
  EXPECT_EQ(c.kfd_export_version, (uint32_t)GIO_KFD_EXPORT_VERSION);
  EXPECT_EQ(c.flush, flush_via::kfd_patch);

  std::string why;
  EXPECT_EQ(gio::drv::kfd_gpu_id(f.ops(), "0000:C1:00.0", &why), 43690u) << why;
  gio::drv::export_result r;
  ASSERT_TRUE(gio::drv::export_flush_page(f.ops(), c, kBdf, &r, &why)) << why;
  EXPECT_GE(r.fd, 0);
  EXPECT_EQ(r.size, 4096u);
  EXPECT_EQ(r.offset, 0u);
  EXPECT_EQ(f.last_export.what, (uint32_t)GIO_KFD_EXPORT_HDP_FLUSH);
  EXPECT_EQ(f.last_export.gpu_id, 43690u);
  EXPECT_EQ(f.last_export.flags, (uint32_t)(O_CLOEXEC | O_RDWR));
  EXPECT_EQ(f.last_export.pad, 0u);

  f.export_size = 1 << 30, f.export_offset = 0x200000;
  ASSERT_TRUE(gio::drv::export_vram(f.ops(), c, kBdf, (void*)0x7f0000200000ull, &r, &why)) << why;
  EXPECT_EQ(f.last_export.what, (uint32_t)GIO_KFD_EXPORT_VRAM);
  EXPECT_EQ(f.last_export.va, 0x7f0000200000ull);
  EXPECT_EQ(r.offset, 0x200000u);
  EXPECT_EQ(f.open_fds.size(), 0u) << "/dev/kfd is closed after each call";
}

TEST(DriverProbe, PatchedKfdAnsweringNonsenseIsRefusedWithoutLeakingTheFd) {
  fake f;
  caps c = f.patched_kfd();
  ASSERT_EQ(c.flush, flush_via::kfd_patch);
  f.export_offset = 4096;  // the register past the page it came with
  gio::drv::export_result r;
  std::string why;
  EXPECT_FALSE(gio::drv::export_flush_page(f.ops(), c, kBdf, &r, &why));
  EXPECT_NE(why.find("offset 4096"), std::string::npos) << why;
  EXPECT_TRUE(f.exported.empty()) << "the dma-buf of a refused answer is closed";

  f.export_offset = 0, f.export_errno = ENODEV;  // e.g. no remap page on an SR-IOV function
  EXPECT_FALSE(gio::drv::export_flush_page(f.ops(), c, kBdf, &r, &why));
  EXPECT_NE(why.find("No such device"), std::string::npos) << why;

  // A stock 6.1 config lacks PCI_P2PDMA and DMABUF_MOVE_NOTIFY: the patch refuses VRAM, and the
  // heap then registers as before.
  f.export_errno = EOPNOTSUPP;
  EXPECT_FALSE(gio::drv::export_vram(f.ops(), c, kBdf, (void*)0x7000, &r, &why));
  EXPECT_NE(why.find("Operation not supported"), std::string::npos) << why;
  EXPECT_TRUE(f.exported.empty());

  EXPECT_FALSE(gio::drv::export_flush_page(f.ops(), c, "0000:c2:00.0", &r, &why)) << "a GPU KFD does not list";
  EXPECT_NE(why.find("no KFD topology node for 0000:c2:00.0"), std::string::npos) << why;
  EXPECT_FALSE(gio::drv::export_flush_page(f.ops(), c, "c1:00.0", &r, &why));
  EXPECT_NE(why.find("bad PCI address"), std::string::npos) << why;
}

TEST(DriverProbe, AProbeAnsweringVersionZeroIsNotTakenForThePatch) {
  fake f;
  f.node("kfd");
  f.kfd = f.kfd_patched = true;
  f.export_version = 0;
  caps c = gio::drv::probe(f.ops());
  EXPECT_FALSE(c.kfd_export);
  EXPECT_NE(c.export_why.find("not GIO's"), std::string::npos) << c.export_why;
  EXPECT_EQ(c.flush, flush_via::none);
}

TEST(DriverProbe, GioIomemExportsTheRegisterBarsHdpPage) {
  fake f;
  f.node("kfd");
  f.node("gio_iomem");
  f.kfd = true;  // a stock KFD: gio_iomem is the way
  f.iomem = true;
  f.resource(512 << 10);
  caps c = gio::drv::probe(f.ops());
  EXPECT_TRUE(c.iomem) << c.iomem_why;
  ASSERT_EQ(c.flush, flush_via::gio_iomem);
  gio::drv::export_result r;
  std::string why;
  ASSERT_TRUE(gio::drv::export_flush_page(f.ops(), c, kBdf, &r, &why)) << why;
  EXPECT_EQ(f.last_iomem.domain, 0u);
  EXPECT_EQ(f.last_iomem.bus, 0xc1u);
  EXPECT_EQ(f.last_iomem.devfn, 0u);
  EXPECT_EQ(f.last_iomem.bar, 5u);
  EXPECT_EQ(f.last_iomem.offset, 0x7f000u);
  EXPECT_EQ(f.last_iomem.size, 4096u);
  EXPECT_EQ(r.offset, 0u);
  EXPECT_NE(r.how.find("gio_iomem"), std::string::npos);
}

TEST(DriverProbe, GioIomemRefusesARegisterBarTooSmallForTheRemapPage) {
  fake f;
  f.node("gio_iomem");
  f.iomem = true;
  f.resource(256 << 10);
  caps c = gio::drv::probe(f.ops());
  ASSERT_EQ(c.flush, flush_via::gio_iomem);
  gio::drv::export_result r;
  std::string why;
  EXPECT_FALSE(gio::drv::export_flush_page(f.ops(), c, kBdf, &r, &why));
  EXPECT_NE(why.find("too few for the remap page"), std::string::npos) << why;
  EXPECT_EQ(f.last_iomem.size, 0u) << "nothing was asked of the module";
}

TEST(DriverProbe, ThePatchIsPreferredOverGioIomem) {
  fake f;
  f.node("kfd");
  f.node("gio_iomem");
  f.kfd = f.kfd_patched = f.iomem = true;
  caps c = gio::drv::probe(f.ops());
  EXPECT_EQ(c.flush, flush_via::kfd_patch);
  EXPECT_TRUE(c.iomem);
}

}  // namespace
