#!/bin/bash
# SPDX-License-Identifier: MIT
#
# qemu-smoke.sh: boot-load gio_iomem.ko in a throw-away qemu VM and exercise /dev/gio_iomem.
#
# What it does:
#   1. builds the module (make KDIR=...) and smoke.c as a static binary;
#   2. takes a bootable kernel matching KDIR: $VMLINUZ, else /boot/vmlinuz-$KREL, else the
#      vmlinuz inside Debian's linux-image-$KREL package fetched with `apt-get download`;
#   3. packs busybox-static + gio_iomem.ko + smoke into an initramfs whose /init insmods the
#      module, runs smoke against qemu's standard VGA at 00:02.0 (its 4 KiB MMIO BAR 2 holds
#      the bochs display registers and stands in for a GPU register BAR: export, error codes,
#      mmap + a register read), rmmods the module, greps dmesg for oopses/warnings, powers off;
#   4. boots it with qemu-system-x86_64 (TCG; ACCEL=kvm to try KVM) and prints
#      the guest's "SMOKE ..." lines. Exit 0 only if the guest reported "SMOKE ALL PASS".
#
# What it cannot do: no RDMA importer exists in the VM, so dma-buf attach/map (the NIC side)
# is not exercised here.
#
# Needs: qemu-system-x86, busybox-static, gcc, cpio, file, the kernel headers for KDIR (Debian:
#   apt-get install qemu-system-x86 busybox-static linux-headers-$KREL).
# Usage: driver-patches/peer-mem/qemu-smoke.sh [KREL]   (default 6.1.0-47-amd64)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
KREL=${1:-${KREL:-6.1.0-47-amd64}}
KDIR=${KDIR:-/usr/src/linux-headers-$KREL}
work=$(mktemp -d /tmp/gio-iomem-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT

make -s -C "$here" KDIR="$KDIR" >/dev/null
gcc -static -O2 -Wall -Wextra -I"$here" -o "$work/smoke" "$here/smoke.c"

vmlinuz=${VMLINUZ:-}
if [ -z "$vmlinuz" ] && [ -r "/boot/vmlinuz-$KREL" ]; then
	vmlinuz=/boot/vmlinuz-$KREL
fi
if [ -z "$vmlinuz" ]; then
	(cd "$work" && apt-get download "linux-image-$KREL" >/dev/null 2>&1)
	dpkg-deb -x "$work"/linux-image-"$KREL"_*.deb "$work/kpkg"
	vmlinuz=$work/kpkg/boot/vmlinuz-$KREL
fi

busybox=$(command -v busybox)
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	{ echo "qemu-smoke: $busybox is not static (apt-get install busybox-static)" >&2; exit 2; }

root=$work/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp}
cp "$busybox" "$root/bin/busybox"
cp "$here/gio_iomem.ko" "$work/smoke" "$root/"
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "SMOKE info: kernel $(uname -r)"
echo "SMOKE info: 00:02.0 is $(cat /sys/bus/pci/devices/0000:00:02.0/vendor):$(cat /sys/bus/pci/devices/0000:00:02.0/device)"
if insmod /gio_iomem.ko; then
	echo "SMOKE PASS insmod gio_iomem.ko"
	/smoke 00:02.0; rc=$?
	rmmod gio_iomem && echo "SMOKE PASS rmmod gio_iomem" || { echo "SMOKE FAIL rmmod"; rc=1; }
else
	echo "SMOKE FAIL insmod gio_iomem.ko"; rc=1
fi
if dmesg | grep -E 'BUG|Oops|WARNING|Call Trace|general protection'; then
	echo "SMOKE FAIL kernel log shows a problem"; rc=1
fi
dmesg | grep -i gio_iomem | sed 's/^/SMOKE dmesg: /'
[ "$rc" = 0 ] && echo "SMOKE ALL PASS" || echo "SMOKE SOME FAILED"
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"

# TCG by default: nested KVM on cloud hosts often rejects qemu's MSR set-up or stalls.
accel=(-accel "${ACCEL:-tcg}")
timeout "${TIMEOUT:-420}" qemu-system-x86_64 -machine pc "${accel[@]}" -m 512 -smp 1 \
	-vga std -display none -serial stdio -monitor none -no-reboot \
	-kernel "$vmlinuz" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 quiet loglevel=4 panic=-1 rdinit=/init" \
	</dev/null >"$work/console.log" 2>&1 || true
grep -a '^SMOKE' "$work/console.log" || { tail -n 40 "$work/console.log"; exit 1; }
grep -aq '^SMOKE ALL PASS' "$work/console.log"
