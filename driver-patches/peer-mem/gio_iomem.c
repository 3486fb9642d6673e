// SPDX-License-Identifier: GPL-2.0
/*
 * gio_iomem: export a page-aligned range of a PCI memory BAR as a dma-buf.
 *
 * GIO needs a NIC to RDMA-write a GPU's flush register page (AMD: the HDP
 * flush page in the register BAR, the paper's "PPB"). Upstream RDMA takes
 * peer memory only as a dma-buf (ibv_reg_dmabuf_mr), and a stock amdgpu
 * cannot export its register BAR as one, so this module does it for any
 * PCI device. The contract with user space is uapi/gio_iomem.h.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/pci-p2pdma.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#include "uapi/gio_iomem.h"

/*
 * A scatterlist entry's length is an unsigned int, so a large BAR range
 * (a resizable VRAM BAR) is described as several entries over one DMA
 * mapping. 1 GiB keeps every entry aligned as well as the range itself,
 * which lets the importer pick its largest page size.
 */
#define GIO_IOMEM_SG_CHUNK SZ_1G

struct gio_iomem_buf {
	struct pci_dev *pdev;	/* holds a reference for the dma-buf's life */
	int bar;
	phys_addr_t phys;	/* CPU physical address of the range */
	size_t size;
};

/* Per-attachment state: the one DMA mapping the sg_table describes. */
struct gio_iomem_map {
	struct sg_table sgt;
	dma_addr_t addr;
	size_t size;
};

static int gio_iomem_attach(struct dma_buf *dmabuf,
			    struct dma_buf_attachment *attach)
{
	struct gio_iomem_buf *buf = dmabuf->priv;

	/*
	 * The range is MMIO: there are no struct pages behind the sg entries.
	 * Only an importer that declared it handles page-less peer memory
	 * (allow_peer2peer, as the RDMA core and amdgpu do) may see it;
	 * another could call sg_page() on our entries and dereference NULL.
	 */
	if (!attach->peer2peer)
		return -EOPNOTSUPP;

	if (!dev_is_pci(attach->dev))
		return 0;

	/*
	 * A peer write from the importer must reach the BAR through the PCI
	 * fabric. Where the kernel can judge the route (CONFIG_PCI_P2PDMA),
	 * refuse one it knows will not work (ACS redirecting to a root port
	 * that drops peer traffic, unknown host bridges). Without it the
	 * stub always answers "no", which would make the module useless on
	 * distribution kernels such as Debian's 6.1, so the route is left
	 * unchecked: CAP_SYS_RAWIO holders who export a BAR already answer
	 * for what the device does with it.
	 */
	if (IS_ENABLED(CONFIG_PCI_P2PDMA)) {
		if (pci_p2pdma_distance(buf->pdev, attach->dev, true) < 0)
			return -EOPNOTSUPP;
	} else {
		dev_warn_once(attach->dev,
			      "gio_iomem: kernel lacks CONFIG_PCI_P2PDMA; peer route to %s not checked\n",
			      pci_name(buf->pdev));
	}
	return 0;
}

static struct sg_table *gio_iomem_map_dma_buf(struct dma_buf_attachment *attach,
					      enum dma_data_direction dir)
{
	struct gio_iomem_buf *buf = attach->dmabuf->priv;
	struct gio_iomem_map *map;
	struct scatterlist *sg;
	unsigned int nents;
	size_t done;
	int i, ret;

	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return ERR_PTR(-ENOMEM);

	nents = DIV_ROUND_UP(buf->size, GIO_IOMEM_SG_CHUNK);
	ret = sg_alloc_table(&map->sgt, nents, GFP_KERNEL);
	if (ret)
		goto err_free;

	/*
	 * dma_map_resource gives the address the importer must use to reach
	 * the BAR: the bus address directly, or an IOVA where an IOMMU
	 * translates for it. The CPU never caches MMIO, so there is nothing
	 * to sync: skip the CPU sync work.
	 */
	map->size = buf->size;
	map->addr = dma_map_resource(attach->dev, buf->phys, buf->size, dir,
				     DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(attach->dev, map->addr)) {
		ret = -ENOMEM;
		goto err_table;
	}

	done = 0;
	for_each_sgtable_sg(&map->sgt, sg, i) {
		size_t len = min_t(size_t, buf->size - done, GIO_IOMEM_SG_CHUNK);

		/* No page: the importer opted into peer memory (see attach). */
		sg_set_page(sg, NULL, len, 0);
		sg_dma_address(sg) = map->addr + done;
		sg_dma_len(sg) = len;
		done += len;
	}
	return &map->sgt;

err_table:
	sg_free_table(&map->sgt);
err_free:
	kfree(map);
	return ERR_PTR(ret);
}

static void gio_iomem_unmap_dma_buf(struct dma_buf_attachment *attach,
				    struct sg_table *sgt,
				    enum dma_data_direction dir)
{
	struct gio_iomem_map *map = container_of(sgt, struct gio_iomem_map, sgt);

	dma_unmap_resource(attach->dev, map->addr, map->size, dir,
			   DMA_ATTR_SKIP_CPU_SYNC);
	sg_free_table(&map->sgt);
	kfree(map);
}

static void gio_iomem_release(struct dma_buf *dmabuf)
{
	struct gio_iomem_buf *buf = dmabuf->priv;

	pci_dev_put(buf->pdev);
	kfree(buf);
}

static int gio_iomem_mmap(struct dma_buf *dmabuf, struct vm_area_struct *vma)
{
	struct gio_iomem_buf *buf = dmabuf->priv;
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long npages = buf->size >> PAGE_SHIFT;
	unsigned long end;

	if (check_add_overflow(vma->vm_pgoff, vma_pages(vma), &end) ||
	    end > npages)
		return -EINVAL;

	/*
	 * A private (copy-on-write) mapping of device registers makes no
	 * sense and remap_pfn_range treats it specially: insist on shared.
	 */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
#else
	vma->vm_flags |= VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP;
#endif
	/*
	 * Registers have side effects on read and write and a flush page
	 * must see each store: no CPU caching, no write combining.
	 */
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	return io_remap_pfn_range(vma, vma->vm_start,
				  (buf->phys >> PAGE_SHIFT) + vma->vm_pgoff,
				  len, vma->vm_page_prot);
}

/*
 * Deliberately not a dynamic exporter (no pin/unpin): a BAR never moves,
 * so there is nothing to pin and never a move_notify to send. The dma-buf
 * core bridges a dynamic importer (mlx5's dma-buf MRs in 6.1) to a static
 * exporter by mapping once at attach time and caching the sg_table, which
 * is exactly right for MMIO. A pinning importer
 * (ib_umem_dmabuf_get_pinned) works too: dma_buf_pin is a no-op without
 * a pin op.
 */
static const struct dma_buf_ops gio_iomem_dmabuf_ops = {
	.attach = gio_iomem_attach,
	.map_dma_buf = gio_iomem_map_dma_buf,
	.unmap_dma_buf = gio_iomem_unmap_dma_buf,
	.release = gio_iomem_release,
	.mmap = gio_iomem_mmap,
};

static long gio_iomem_export(struct gio_iomem_export __user *uarg)
{
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);
	struct gio_iomem_export arg;
	struct gio_iomem_buf *buf;
	struct dma_buf *dmabuf;
	struct pci_dev *pdev;
	resource_size_t start, len;
	unsigned long flags;
	u64 end;
	int fd, ret;

	/* A NIC writing into a BAR can drive the device's registers. */
	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;

	if (arg.flags & ~(u32)(O_CLOEXEC | O_RDWR))
		return -EINVAL;
	if (arg.domain > INT_MAX || arg.bus > 0xff || arg.devfn > 0xff)
		return -EINVAL;
	if (arg.bar >= PCI_STD_NUM_BARS)
		return -EINVAL;
	if (!arg.size || !PAGE_ALIGNED(arg.offset) || !PAGE_ALIGNED(arg.size))
		return -EINVAL;
	if (check_add_overflow(arg.offset, arg.size, &end))
		return -EINVAL;

	pdev = pci_get_domain_bus_and_slot(arg.domain, arg.bus, arg.devfn);
	if (!pdev)
		return -ENODEV;

	/*
	 * The upper half of a 64-bit BAR has no flags of its own, so it fails
	 * here like an I/O or absent BAR.
	 */
	flags = pci_resource_flags(pdev, arg.bar);
	start = pci_resource_start(pdev, arg.bar);
	len = pci_resource_len(pdev, arg.bar);
	if (!(flags & IORESOURCE_MEM) ||
	    (flags & (IORESOURCE_UNSET | IORESOURCE_DISABLED)) ||
	    !start || !len || end > len) {
		ret = -EINVAL;
		goto err_put_pdev;
	}
	/* The CPU mapping and the importers' page sizes need page alignment. */
	if (!PAGE_ALIGNED(start)) {
		ret = -EINVAL;
		goto err_put_pdev;
	}

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto err_put_pdev;
	}
	buf->pdev = pdev;
	buf->bar = arg.bar;
	buf->phys = start + arg.offset;
	buf->size = arg.size;

	exp_info.ops = &gio_iomem_dmabuf_ops;
	exp_info.size = buf->size;
	exp_info.flags = arg.flags & O_ACCMODE;
	exp_info.priv = buf;
	dmabuf = dma_buf_export(&exp_info);
	if (IS_ERR(dmabuf)) {
		ret = PTR_ERR(dmabuf);
		goto err_free_buf;
	}
	/* From here on the dma-buf owns buf and the pdev reference. */

	/*
	 * Reserve the fd, report it, and only then publish it: a failed copy
	 * to user space must not leave an fd the caller never learns about.
	 */
	fd = get_unused_fd_flags(arg.flags & O_CLOEXEC);
	if (fd < 0) {
		dma_buf_put(dmabuf);
		return fd;
	}
	arg.fd = fd;
	if (copy_to_user(uarg, &arg, sizeof(arg))) {
		put_unused_fd(fd);
		dma_buf_put(dmabuf);
		return -EFAULT;
	}
	fd_install(fd, dmabuf->file);

	pci_dbg(pdev, "gio_iomem: exported BAR %u [+%#llx, %#llx bytes] as fd %d\n",
		arg.bar, arg.offset, arg.size, fd);
	return 0;

err_free_buf:
	kfree(buf);
err_put_pdev:
	pci_dev_put(pdev);
	return ret;
}

static long gio_iomem_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case GIO_IOMEM_GET_VERSION:
		return put_user((__u32)GIO_IOMEM_VERSION, (__u32 __user *)uarg);
	case GIO_IOMEM_EXPORT:
		return gio_iomem_export(uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations gio_iomem_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
	.unlocked_ioctl = gio_iomem_ioctl,
	/* The struct has no pointers and the same layout on i386. */
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice gio_iomem_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "gio_iomem",
	.fops = &gio_iomem_fops,
	.mode = 0600,
};

module_misc_device(gio_iomem_misc);

MODULE_DESCRIPTION("Export a PCI memory BAR range as a dma-buf for RDMA peer access (GIO)");
MODULE_LICENSE("GPL");
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
MODULE_IMPORT_NS("DMA_BUF");
#else
MODULE_IMPORT_NS(DMA_BUF);
#endif
