// What the running kernel drivers offer GIO beyond a stock kernel (driver-patches/), found by asking
// them, never assumed, and the fallback when they offer nothing.
//
// Two interfaces, either of which lets a NIC register a GPU's PCIe flush page (AMD: the HDP flush
// page, the paper's PPB) through a dma-buf (ibv_reg_dmabuf_mr):
//   - the KFD patch (driver-patches/amdgpu/): AMDKFD_IOC_GIO_EXPORT_DMABUF on /dev/kfd, which also
//     exports a KFD VRAM allocation (the symmetric heap) for the NIC;
//   - gio_iomem (driver-patches/peer-mem/): /dev/gio_iomem exports a page of a PCI BAR, here the
//     HDP page at the end of the GPU's register BAR.
// Without them GIO does what it did before: no NIC-side flush page, and the heap registers through
// the platform's dma-buf or a peer-memory module (host/gda/mlx5_devx.cpp).
//
// Every system call goes through `sys_ops`, so tests run the probe against a fake /dev and /sys
// and stubbed ioctls (tests/unit/driver_probe_test.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace gio::drv {

struct sys_ops {
  std::string dev_root = "/dev";
  std::string sys_root = "/sys";
  std::function<int(const char* path, int flags)> open;          // default: ::open
  std::function<int(int fd, unsigned long req, void* arg)> ioctl;  // default: ::ioctl; -1 with errno set
  std::function<int(int fd)> close;                                // default: ::close
  sys_ops();
};

enum class flush_via { none, kfd_patch, gio_iomem };

struct caps {
  bool kfd = false;  // /dev/kfd answered AMDKFD_IOC_GET_VERSION
  uint32_t kfd_major = 0, kfd_minor = 0;
  bool kfd_export = false;  // the KFD patch: AMDKFD_IOC_GIO_EXPORT_DMABUF answered its probe
  uint32_t kfd_export_version = 0;
  bool iomem = false;  // /dev/gio_iomem answered GIO_IOMEM_GET_VERSION
  uint32_t iomem_version = 0;
  flush_via flush = flush_via::none;  // how a NIC gets the flush page, best first
  std::string kfd_why, export_why, iomem_why, flush_why;
};

// Asks /dev/kfd and /dev/gio_iomem what they offer. Cheap (two opens, three ioctls); never fails:
// what is missing is said in the *_why strings.
caps probe(const sys_ops& sys = sys_ops());

// gio-info's lines ("driver: ..."), one per interface and the choice.
std::string describe(const caps& c);

// The KFD topology's gpu_id of the GPU at PCI address `bdf` ("DDDD:BB:SS.F", any case), from
// <sys_root>/devices/virtual/kfd/kfd/topology/nodes/*/{properties,gpu_id}; 0 and *why if none.
uint32_t kfd_gpu_id(const sys_ops& sys, const std::string& bdf, std::string* why);

// A dma-buf of the HDP flush page of the GPU at `bdf`, by the best interface `c` found. On success
// `fd` (the caller closes it), the bytes it covers and the flush register's offset in it, and `how`.
struct export_result {
  int fd = -1;
  uint64_t size = 0;
  uint64_t offset = 0;  // of the register (flush page) or of the requested address (VRAM) in the dma-buf
  std::string how;
};
bool export_flush_page(const sys_ops& sys, const caps& c, const std::string& bdf, export_result* out, std::string* why);

// A dma-buf of the KFD VRAM allocation holding `va` on the GPU at `bdf` (the KFD patch only).
bool export_vram(const sys_ops& sys, const caps& c, const std::string& bdf, const void* va, export_result* out,
                 std::string* why);

// The HDP flush page's place for gio_iomem: amdgpu maps registers from BAR 5 (Bonaire and later,
// amdgpu_device_init) and puts the remap page at 0x80000 - 4 KiB of it (soc15.c, nv.c, soc21.c:
// MMIO_REG_HOLE_OFFSET, 4 KiB pages only). Checks the BAR in <sys_root>/bus/pci/devices/<bdf>/resource.
bool hdp_page_in_bar(const sys_ops& sys, const std::string& bdf, int* bar, uint64_t* offset, std::string* why);

}  // namespace gio::drv
