// SPDX-License-Identifier: MIT
/*
 * Guest-side checks for qemu-smoke.sh: drives /dev/gio_iomem inside a qemu VM whose
 * standard VGA (bochs-display registers in BAR 2) stands in for a GPU register BAR.
 * Prints "SMOKE PASS ..." / "SMOKE FAIL ..." lines; exit status = number of failures.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "uapi/gio_iomem.h"

static int failures;

static void check(int ok, const char *what)
{
	printf("SMOKE %s %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok)
		failures++;
}

/* One EXPORT call; returns 0 (and *fd) or -errno. */
static int try_export(int dev, uint32_t dom, uint32_t bus, uint32_t devfn, uint32_t bar,
		      uint64_t off, uint64_t size, uint32_t flags, int *fd)
{
	struct gio_iomem_export e = { dom, bus, devfn, bar, off, size, flags, -1 };

	if (ioctl(dev, GIO_IOMEM_EXPORT, &e) < 0)
		return -errno;
	*fd = e.fd;
	return 0;
}

int main(int argc, char **argv)
{
	/* argv[1]: BDF of the VGA device as bus:slot.fn in hex, default 00:02.0 */
	unsigned int bus = 0, slot = 2, fn = 0;
	uint32_t ver = 0, devfn;
	int dev, fd = -1, r;

	if (argc > 1 && sscanf(argv[1], "%x:%x.%x", &bus, &slot, &fn) != 3)
		return 100;
	devfn = (slot << 3) | fn;

	dev = open("/dev/gio_iomem", O_RDWR);
	check(dev >= 0, "open /dev/gio_iomem");
	if (dev < 0)
		return 1;

	check(ioctl(dev, GIO_IOMEM_GET_VERSION, &ver) == 0 && ver == GIO_IOMEM_VERSION,
	      "GET_VERSION == GIO_IOMEM_VERSION");
	check(ioctl(dev, _IO('G', 0x7f)) < 0 && errno == ENOTTY, "unknown ioctl -> ENOTTY");

	r = try_export(dev, 0x7fff, 0xfe, 0xff, 0, 0, 4096, 0, &fd);
	check(r == -ENODEV, "bogus BDF -> ENODEV");
	r = try_export(dev, 0, bus, devfn, 2, 0, 4096, O_NONBLOCK, &fd);
	check(r == -EINVAL, "flags outside O_CLOEXEC|O_RDWR -> EINVAL");
	r = try_export(dev, 0, bus, devfn, 6, 0, 4096, 0, &fd);
	check(r == -EINVAL, "bar 6 -> EINVAL");
	r = try_export(dev, 0, bus, devfn, 2, 0, 0, 0, &fd);
	check(r == -EINVAL, "size 0 -> EINVAL");
	r = try_export(dev, 0, bus, devfn, 2, 100, 4096, 0, &fd);
	check(r == -EINVAL, "unaligned offset -> EINVAL");
	r = try_export(dev, 0, bus, devfn, 2, 4096, 4096, 0, &fd);
	check(r == -EINVAL, "range past end of 4 KiB BAR 2 -> EINVAL");
	r = try_export(dev, 0, bus, devfn, 2, ~0ull & ~4095ull, 8192, 0, &fd);
	check(r == -EINVAL, "offset+size overflow -> EINVAL");
	r = try_export(dev, 0, bus, devfn, 1, 0, 4096, 0, &fd);
	check(r == -EINVAL, "unassigned BAR 1 -> EINVAL");
	r = try_export(dev, 0, bus, devfn, 2, 0, 4096, O_RDWR | O_CLOEXEC, &fd);
	check(r == 0 && fd >= 0, "export VGA BAR 2 page as dma-buf");
	if (r == 0 && fd >= 0) {
		volatile uint16_t *regs;
		void *p;

		check((fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0, "dma-buf fd has FD_CLOEXEC");
		check(mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED,
		      "mmap longer than the buffer fails");
		check(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED,
		      "MAP_PRIVATE mmap fails");
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		check(p != MAP_FAILED, "mmap of the exported page");
		if (p != MAP_FAILED) {
			/* bochs dispi registers at +0x500; index 0 is the ID (0xB0C0..0xB0C5) */
			regs = (volatile uint16_t *)((char *)p + 0x500);
			printf("SMOKE info: bochs dispi ID register = %#x\n", regs[0]);
			check((regs[0] & 0xfff0) == 0xb0c0, "CPU read of the BAR through the dma-buf mmap");
			munmap(p, 4096);
		}
		/* The dma-buf pins the module: its ops must outlive any rmmod attempt. */
		check(system("rmmod gio_iomem 2>/dev/null") != 0,
		      "rmmod refused while a dma-buf is alive");
		close(fd);
	}

	/* Without CAP_SYS_RAWIO (drop root; the device fd stays open) EXPORT is refused. */
	if (setuid(65534) == 0) {
		r = try_export(dev, 0, bus, devfn, 2, 0, 4096, 0, &fd);
		check(r == -EPERM, "EXPORT without CAP_SYS_RAWIO -> EPERM");
	} else {
		check(0, "setuid(65534) for the EPERM check");
	}
	close(dev);
	printf("SMOKE done: %d failure(s)\n", failures);
	return failures;
}
