/* SPDX-License-Identifier: MIT */
/*
 * GIO's KFD extension, the user-space view (driver-patches/amdgpu/0001-*.patch adds the same
 * definitions to include/uapi/linux/kfd_ioctl.h; driver-patches/build.sh checks they agree).
 *
 * AMDKFD_IOC_GIO_EXPORT_DMABUF hands out a dma-buf for
 *   - the HDP flush page of a GPU (the paper's PPB; the page KFD maps for
 *     KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP), so a NIC can register it with ibv_reg_dmabuf_mr and
 *     write the flush register after its data, or
 *   - the KFD VRAM allocation of this process that holds `va` (hipMalloc'd memory), so a NIC can
 *     register GPU memory without a PeerDirect module.
 * PROBE exports nothing and answers `version`: user space calls it to learn whether the running
 * kernel carries the patch. An unpatched KFD answers ENOTTY (nr 0x40 lies past its table).
 *
 * nr 0x40 stays clear of upstream's numbers (6.1 ends at 0x23; later kernels continue from 0x24).
 */
#ifndef GIO_KFD_H_INCLUDED
#define GIO_KFD_H_INCLUDED

#include <linux/ioctl.h>
#include <linux/types.h>

#define GIO_KFD_EXPORT_VERSION 1

#define GIO_KFD_EXPORT_PROBE 0     /* nothing exported; `version` is set */
#define GIO_KFD_EXPORT_HDP_FLUSH 1 /* the HDP flush page of gpu_id (one page) */
#define GIO_KFD_EXPORT_VRAM 2      /* the VRAM allocation of this process that holds va */

struct kfd_ioctl_gio_export_dmabuf_args {
	__u64 va;        /* to KFD (VRAM): an address inside the allocation */
	__u64 size;      /* from KFD: bytes the dma-buf covers */
	__u64 offset;    /* from KFD: VRAM: va - start of the allocation; HDP: the flush register's
			  * offset in the page (KFD_MMIO_REMAP_HDP_MEM_FLUSH_CNTL) */
	__u32 gpu_id;    /* to KFD: as in the KFD topology (ignored by PROBE) */
	__u32 what;      /* to KFD: GIO_KFD_EXPORT_* */
	__u32 flags;     /* to KFD: O_CLOEXEC and/or O_RDWR for the new file; nothing else */
	__s32 dmabuf_fd; /* from KFD: the dma-buf; -1 for PROBE */
	__u32 version;   /* from KFD: GIO_KFD_EXPORT_VERSION */
	__u32 pad;       /* must be 0 */
};

#ifndef AMDKFD_IOCTL_BASE
#define AMDKFD_IOCTL_BASE 'K'
#endif
#define AMDKFD_IOC_GIO_EXPORT_DMABUF _IOWR(AMDKFD_IOCTL_BASE, 0x40, struct kfd_ioctl_gio_export_dmabuf_args)

#endif
