#include "host/driver/driver_probe.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "driver-patches/amdgpu/uapi/gio_kfd.h"
#include "driver-patches/peer-mem/uapi/gio_iomem.h"

namespace gio::drv {

// AMDKFD_IOC_GET_VERSION as <linux/kfd_ioctl.h> has it since KFD 1.0 (that header needs libdrm's
// <drm/drm.h>, which a build without AMD packages lacks).
struct kfd_version_args {
  uint32_t major_version, minor_version;
};
constexpr unsigned long kKfdGetVersion = _IOR('K', 0x01, kfd_version_args);

static_assert(sizeof(kfd_ioctl_gio_export_dmabuf_args) == 48, "the KFD patch's argument block (gio_kfd.h)");
static_assert(sizeof(gio_iomem_export) == 40, "gio_iomem's argument block (gio_iomem.h)");

sys_ops::sys_ops()
    : open([](const char* p, int f) { return ::open(p, f); }),
      ioctl([](int fd, unsigned long req, void* arg) { return ::ioctl(fd, req, arg); }),
      close([](int fd) { return ::close(fd); }) {}

namespace {

std::string err(const char* what, int e) { return std::string(what) + ": " + strerror(e); }

// An open file descriptor that closes itself through the seam.
struct fd_holder {
  const sys_ops& sys;
  int fd;
  fd_holder(const sys_ops& s, const std::string& path) : sys(s), fd(s.open(path.c_str(), O_RDWR | O_CLOEXEC)) {}
  ~fd_holder() {
    if (fd >= 0) sys.close(fd);
  }
};

// "DDDD:BB:SS.F" -> domain, bus, devfn. Lower or upper case hex, as sysfs and HIP print it.
bool parse_bdf(const std::string& bdf, uint32_t* domain, uint32_t* bus, uint32_t* devfn) {
  unsigned d = 0, b = 0, s = 0, f = 0;
  char tail = 0;
  if (sscanf(bdf.c_str(), "%x:%x:%x.%x%c", &d, &b, &s, &f, &tail) != 4 || b > 0xff || s > 0x1f || f > 7) return false;
  *domain = d, *bus = b, *devfn = (s << 3) | f;
  return true;
}

std::string canonical_bdf(const std::string& bdf) {
  uint32_t d, b, df;
  if (!parse_bdf(bdf, &d, &b, &df)) return bdf;
  char s[32];
  snprintf(s, sizeof s, "%04x:%02x:%02x.%x", d, b, df >> 3, df & 7);
  return s;
}

// A value "name N" from a KFD topology properties file.
bool property(const std::string& text, const char* name, uint64_t* v) {
  std::istringstream in(text);
  std::string key;
  uint64_t value;
  while (in >> key >> value)
    if (key == name) return *v = value, true;
  return false;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

caps probe(const sys_ops& sys) {
  caps c;
  {
    fd_holder kfd(sys, sys.dev_root + "/kfd");
    if (kfd.fd < 0) {
      c.kfd_why = err((sys.dev_root + "/kfd").c_str(), errno);
      c.export_why = "no KFD";
    } else {
      kfd_version_args v{};
      if (sys.ioctl(kfd.fd, kKfdGetVersion, &v) != 0) {
        c.kfd_why = err("AMDKFD_IOC_GET_VERSION", errno);
        c.export_why = "no KFD";
      } else {
        c.kfd = true, c.kfd_major = v.major_version, c.kfd_minor = v.minor_version;
        c.kfd_why = "KFD ioctl interface " + std::to_string(v.major_version) + "." + std::to_string(v.minor_version);
        // An unpatched KFD answers ENOTTY: nr 0x40 lies past its ioctl table.
        kfd_ioctl_gio_export_dmabuf_args a{};
        a.what = GIO_KFD_EXPORT_PROBE;
        a.dmabuf_fd = -1;
        if (sys.ioctl(kfd.fd, AMDKFD_IOC_GIO_EXPORT_DMABUF, &a) != 0) {
          c.export_why = errno == ENOTTY ? "not in this kernel (AMDKFD_IOC_GIO_EXPORT_DMABUF: ENOTTY; driver-patches/amdgpu)"
                                         : err("AMDKFD_IOC_GIO_EXPORT_DMABUF probe", errno);
        } else if (a.version < 1) {
          c.export_why = "AMDKFD_IOC_GIO_EXPORT_DMABUF answered version " + std::to_string(a.version) + ": not GIO's";
        } else {
          c.kfd_export = true, c.kfd_export_version = a.version;
          c.export_why = "AMDKFD_IOC_GIO_EXPORT_DMABUF version " + std::to_string(a.version);
        }
      }
    }
  }
  {
    fd_holder io(sys, sys.dev_root + "/gio_iomem");
    uint32_t v = 0;
    if (io.fd < 0) {
      c.iomem_why = err((sys.dev_root + "/gio_iomem").c_str(), errno) + " (module gio_iomem not loaded: driver-patches/peer-mem)";
    } else if (sys.ioctl(io.fd, GIO_IOMEM_GET_VERSION, &v) != 0) {
      c.iomem_why = err("GIO_IOMEM_GET_VERSION", errno);
    } else if (v < 1) {
      c.iomem_why = "GIO_IOMEM_GET_VERSION answered " + std::to_string(v) + ": not GIO's";
    } else {
      c.iomem = true, c.iomem_version = v;
      c.iomem_why = "version " + std::to_string(v);
    }
  }
  if (c.kfd_export) {
    c.flush = flush_via::kfd_patch;
    c.flush_why = "dma-buf from KFD (AMDKFD_IOC_GIO_EXPORT_DMABUF)";
  } else if (c.iomem) {
    c.flush = flush_via::gio_iomem;
    c.flush_why = "dma-buf of the register BAR's HDP page from /dev/gio_iomem";
  } else {
    c.flush_why = "none: neither the KFD patch nor gio_iomem is there, so a NIC cannot write a GPU's flush page "
                  "(GIO runs as before)";
  }
  return c;
}

std::string describe(const caps& c) {
  std::string s;
  s += "driver: kfd: " + c.kfd_why + "\n";
  s += "driver: kfd dma-buf export (GPU memory and the HDP flush page for the NIC): " + c.export_why + "\n";
  s += "driver: gio_iomem (a PCI BAR page as a dma-buf): " + c.iomem_why + "\n";
  s += "driver: NIC flush-page registration: " + c.flush_why + "\n";
  return s;
}

uint32_t kfd_gpu_id(const sys_ops& sys, const std::string& bdf, std::string* why) {
  uint32_t domain, bus, devfn;
  if (!parse_bdf(bdf, &domain, &bus, &devfn)) return *why = "bad PCI address '" + bdf + "'", 0;
  const std::string nodes = sys.sys_root + "/devices/virtual/kfd/kfd/topology/nodes";
  DIR* d = opendir(nodes.c_str());
  if (!d) return *why = err(nodes.c_str(), errno), 0;
  uint32_t found = 0;
  // KFD's location_id is pci_dev_id(): bus << 8 | devfn (kfd_topology.c); CPU nodes have gpu_id 0.
  for (dirent* e; (e = readdir(d)) && !found;) {
    if (e->d_name[0] == '.') continue;
    const std::string node = nodes + "/" + e->d_name;
    uint64_t loc, dom = 0, id = 0;
    const std::string props = slurp(node + "/properties");
    if (!property(props, "location_id", &loc)) continue;
    property(props, "domain", &dom);
    std::istringstream(slurp(node + "/gpu_id")) >> id;
    if (id && loc == ((bus << 8) | devfn) && dom == domain) found = (uint32_t)id;
  }
  closedir(d);
  if (!found) *why = "no KFD topology node for " + canonical_bdf(bdf);
  return found;
}

bool hdp_page_in_bar(const sys_ops& sys, const std::string& bdf, int* bar, uint64_t* offset, std::string* why) {
  constexpr int kBar = 5;
  constexpr uint64_t kHole = 0x80000 - 4096, kPage = 4096;
  if (sysconf(_SC_PAGESIZE) != (long)kPage) return *why = "amdgpu has no remap page with pages other than 4 KiB", false;
  const std::string path = sys.sys_root + "/bus/pci/devices/" + canonical_bdf(bdf) + "/resource";
  std::ifstream f(path);
  if (!f) return *why = err(path.c_str(), errno), false;
  uint64_t start = 0, end = 0, flags = 0;
  for (int i = 0; i <= kBar; ++i) {
    std::string line;
    if (!std::getline(f, line) || sscanf(line.c_str(), "%" SCNx64 " %" SCNx64 " %" SCNx64, &start, &end, &flags) != 3)
      return *why = path + ": no line for BAR " + std::to_string(kBar), false;
  }
  constexpr uint64_t kResourceMem = 0x200;  // IORESOURCE_MEM
  if (!(flags & kResourceMem) || end <= start) return *why = path + ": BAR 5 is not an assigned memory BAR", false;
  if (end - start + 1 < kHole + kPage)
    return *why = path + ": BAR 5 holds " + std::to_string(end - start + 1) + " bytes, too few for the remap page at 0x7f000", false;
  *bar = kBar, *offset = kHole;
  return true;
}

bool export_flush_page(const sys_ops& sys, const caps& c, const std::string& bdf, export_result* out, std::string* why) {
  if (c.flush == flush_via::kfd_patch) {
    const uint32_t id = kfd_gpu_id(sys, bdf, why);
    if (!id) return false;
    fd_holder kfd(sys, sys.dev_root + "/kfd");
    if (kfd.fd < 0) return *why = err("/dev/kfd", errno), false;
    kfd_ioctl_gio_export_dmabuf_args a{};
    a.gpu_id = id, a.what = GIO_KFD_EXPORT_HDP_FLUSH, a.flags = O_CLOEXEC | O_RDWR, a.dmabuf_fd = -1;
    if (sys.ioctl(kfd.fd, AMDKFD_IOC_GIO_EXPORT_DMABUF, &a) != 0)
      return *why = err("AMDKFD_IOC_GIO_EXPORT_DMABUF(HDP flush page)", errno), false;
    if (a.dmabuf_fd < 0 || a.size == 0 || a.offset >= a.size) {
      if (a.dmabuf_fd >= 0) sys.close(a.dmabuf_fd);
      return *why = "AMDKFD_IOC_GIO_EXPORT_DMABUF(HDP flush page) returned fd " + std::to_string(a.dmabuf_fd) + ", size " +
                    std::to_string(a.size) + ", offset " + std::to_string(a.offset),
             false;
    }
    *out = {a.dmabuf_fd, a.size, a.offset, "KFD patch, gpu_id " + std::to_string(id)};
    return true;
  }
  if (c.flush == flush_via::gio_iomem) {
    int bar;
    uint64_t off;
    if (!hdp_page_in_bar(sys, bdf, &bar, &off, why)) return false;
    gio_iomem_export e{};
    if (!parse_bdf(bdf, &e.domain, &e.bus, &e.devfn)) return *why = "bad PCI address '" + bdf + "'", false;
    e.bar = (uint32_t)bar, e.offset = off, e.size = 4096, e.flags = O_CLOEXEC | O_RDWR, e.fd = -1;
    fd_holder io(sys, sys.dev_root + "/gio_iomem");
    if (io.fd < 0) return *why = err("/dev/gio_iomem", errno), false;
    if (sys.ioctl(io.fd, GIO_IOMEM_EXPORT, &e) != 0) return *why = err("GIO_IOMEM_EXPORT(HDP flush page)", errno), false;
    if (e.fd < 0) return *why = "GIO_IOMEM_EXPORT returned fd " + std::to_string(e.fd), false;
    // KFD_MMIO_REMAP_HDP_MEM_FLUSH_CNTL: the memory flush register is the page's first word.
    *out = {e.fd, 4096, 0, "gio_iomem, BAR 5 + 0x7f000 of " + canonical_bdf(bdf)};
    return true;
  }
  *why = c.flush_why;
  return false;
}

bool export_vram(const sys_ops& sys, const caps& c, const std::string& bdf, const void* va, export_result* out,
                 std::string* why) {
  if (!c.kfd_export) return *why = "KFD dma-buf export: " + c.export_why, false;
  const uint32_t id = kfd_gpu_id(sys, bdf, why);
  if (!id) return false;
  fd_holder kfd(sys, sys.dev_root + "/kfd");
  if (kfd.fd < 0) return *why = err("/dev/kfd", errno), false;
  kfd_ioctl_gio_export_dmabuf_args a{};
  a.va = (uint64_t)(uintptr_t)va, a.gpu_id = id, a.what = GIO_KFD_EXPORT_VRAM, a.flags = O_CLOEXEC | O_RDWR;
  a.dmabuf_fd = -1;
  if (sys.ioctl(kfd.fd, AMDKFD_IOC_GIO_EXPORT_DMABUF, &a) != 0)
    return *why = err("AMDKFD_IOC_GIO_EXPORT_DMABUF(VRAM)", errno), false;
  if (a.dmabuf_fd < 0 || a.offset >= a.size) {
    if (a.dmabuf_fd >= 0) sys.close(a.dmabuf_fd);
    return *why = "AMDKFD_IOC_GIO_EXPORT_DMABUF(VRAM) returned fd " + std::to_string(a.dmabuf_fd) + ", size " +
                  std::to_string(a.size) + ", offset " + std::to_string(a.offset),
           false;
  }
  *out = {a.dmabuf_fd, a.size, a.offset, "KFD patch, gpu_id " + std::to_string(id)};
  return true;
}

}  // namespace gio::drv
