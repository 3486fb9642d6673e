/* SPDX-License-Identifier: MIT */
/*
 * gio_iomem, the user-space view: /dev/gio_iomem (driver-patches/peer-mem/gio_iomem.c) exports a
 * page-aligned range of a PCI device's memory BAR as a dma-buf, so a NIC can register a GPU's
 * flush register page (AMD: the HDP flush page in the register BAR) with ibv_reg_dmabuf_mr on a
 * kernel whose GPU driver cannot export it. Needs CAP_SYS_RAWIO.
 */
#ifndef GIO_IOMEM_H_INCLUDED
#define GIO_IOMEM_H_INCLUDED

#include <linux/ioctl.h>
#include <linux/types.h>

#define GIO_IOMEM_VERSION 1

struct gio_iomem_export {
	__u32 domain;  /* PCI segment, as in /sys/bus/pci/devices/DDDD:BB:SS.F */
	__u32 bus;
	__u32 devfn;   /* (slot << 3) | function */
	__u32 bar;     /* 0..5: a memory BAR */
	__u64 offset;  /* page-aligned, inside the BAR */
	__u64 size;    /* page-aligned, > 0, offset + size inside the BAR */
	__u32 flags;   /* O_CLOEXEC and/or O_RDWR for the new file; nothing else */
	__s32 fd;      /* from the driver: the dma-buf */
};

#define GIO_IOMEM_IOC_MAGIC 'G'
#define GIO_IOMEM_GET_VERSION _IOR(GIO_IOMEM_IOC_MAGIC, 0x00, __u32)
#define GIO_IOMEM_EXPORT _IOWR(GIO_IOMEM_IOC_MAGIC, 0x01, struct gio_iomem_export)

#endif
