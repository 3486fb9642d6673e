#!/usr/bin/env bash
# Apply GIO's AMD GPU driver patches (driver-patches/amdgpu/*.patch) to Debian's linux-source-6.1 and
# compile-test them; check the uapi contract (driver-patches/amdgpu/uapi/gio_kfd.h) against the patched
# kfd_ioctl.h; build driver-patches/peer-mem if it is there.
#
#   driver-patches/build.sh [--src DIR] [--keep] [--only-patches]
#
#   --src DIR       work directory (default: build-driver/ in the repository, ignored by git). The kernel
#                   tree goes to DIR/linux-source-6.1, pristine copies of patched files to DIR/pristine.
#   --keep          trust the prepared tree in DIR as it is: no extraction check, no (re)configuration,
#                   no `make prepare`; only restore the patched files, re-apply, recompile and check.
#   --only-patches  stop after applying the patches and checking the contract (no configure/compile).
#
# Without --keep the script reuses a tree in DIR when it was extracted from the same tarball (else it
# re-extracts), restores every file a patch ever touched from DIR/pristine, re-applies all patches, and
# lets make decide what to rebuild; so re-running is safe and cheap. Any failure, and any compiler
# warning in the touched objects, exits non-zero. Environment: GIO_BUILD_JOBS (default 2), GIO_NICE
# (default 10), GIO_KSRC_TARBALL (default /usr/src/linux-source-6.1.tar.xz), GIO_DRIVER_REQUIRED.
# Where the Debian packages cannot be had (not root, or no package source has them: the GPU
# machines' Ubuntu) the script exits 77, which ctest reports as a skip naming them; with
# GIO_DRIVER_REQUIRED=1 (tests/run.sh's driver step, CI) that is a failure.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PATCHDIR=$REPO/driver-patches/amdgpu
CONTRACT=$PATCHDIR/uapi/gio_kfd.h
PEERMEM=$REPO/driver-patches/peer-mem
WORK=$REPO/build-driver
KEEP=0
ONLY_PATCHES=0
TARBALL=${GIO_KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CONFIG_XZ=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
JOBS=${GIO_BUILD_JOBS:-2}
NICE=(nice -n "${GIO_NICE:-10}")
# The objects the patches touch, relative to the kernel tree. amdkfd is no module of its own in 6.1:
# amdgpu/Makefile includes amdkfd/Makefile with AMDKFD_PATH := ../amdkfd and links $(AMDKFD_FILES)
# into amdgpu.ko, so Kbuild names these objects from the amdgpu directory.
OBJECTS=(
	drivers/gpu/drm/amd/amdgpu/../amdkfd/kfd_chardev.o
	drivers/gpu/drm/amd/amdgpu/../amdkfd/kfd_gio_export.o
)
# Settings on top of Debian's config. PCI_P2PDMA and DMABUF_MOVE_NOTIFY are what the exported VRAM
# needs at run time (the patch refuses VRAM export without them), so compile the code paths a
# deployment uses. No debug info: it only slows a compile test down.
CONFIG_SET=(--module DRM_AMDGPU --enable HSA_AMD --enable ZONE_DEVICE --enable PCI_P2PDMA
	--enable DMABUF_MOVE_NOTIFY --enable DEBUG_INFO_NONE --disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT
	--disable DEBUG_INFO_BTF --set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "")
CONFIG_WANT=(CONFIG_DRM_AMDGPU=m CONFIG_HSA_AMD=y CONFIG_PCI_P2PDMA=y CONFIG_DMABUF_MOVE_NOTIFY=y)

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "build.sh: error: $*" >&2; exit 1; }
# The packages are not to be had here: a skip (77), or a failure where the build is required.
unavailable() {
	[ "${GIO_DRIVER_REQUIRED:-0}" = 1 ] && die "$*"
	echo "build.sh: SKIPPED: $* (set GIO_DRIVER_REQUIRED=1 to make this a failure)"
	exit 77
}

while [ $# -gt 0 ]; do
	case $1 in
	--src) [ $# -ge 2 ] || die "--src needs a directory"; WORK=$2; shift 2 ;;
	--src=*) WORK=${1#--src=}; shift ;;
	--keep) KEEP=1; shift ;;
	--only-patches) ONLY_PATCHES=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; die "unknown argument: $1" ;;
	esac
done
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
KSRC=$WORK/linux-source-6.1
PRISTINE=$WORK/pristine
LOG=$WORK/log
mkdir -p "$LOG"

# ---- timing: every step is timed; the table is printed on success and on failure ----
TIMES=()
# Seconds since a date +%s.%N stamp (awk: bc is among the packages step 1 may fail to install).
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
T_ALL=$(date +%s.%N)
report() {
	local rc=$?
	echo
	echo "build.sh: step times (s):"
	local t
	for t in "${TIMES[@]}"; do echo "  $t"; done
	[ -z "$STEP" ] || printf '  %-28s %6.1f  (failed here)\n' "$STEP" "$(since "$T_STEP")"
	printf '  %-28s %6.1f\n' total "$(since "$T_ALL")"
	if [ $rc -eq 0 ]; then echo "build.sh: OK"; elif [ $rc -eq 77 ]; then echo "build.sh: SKIPPED"; else echo "build.sh: FAILED (exit $rc)"; fi
}
trap report EXIT
STEP=""
T_STEP=0
begin() { STEP=$1; T_STEP=$(date +%s.%N); echo "== $STEP"; }
end() { TIMES+=("$(printf '%-28s %6.1f' "$STEP" "$(since "$T_STEP")")"); STEP=""; }

# ---- 1. tools and Debian packages ----
begin "1 packages"
need_pkgs=()
for p in linux-source-6.1 linux-config-6.1 make gcc bc flex bison libelf-dev libssl-dev xz-utils patch; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need_pkgs+=("$p")
done
# The tarball may come from elsewhere (GIO_KSRC_TARBALL); then the package is not needed.
if [ -f "$TARBALL" ]; then
	need_pkgs=("${need_pkgs[@]/linux-source-6.1}")
fi
read -r -a need_pkgs <<<"${need_pkgs[*]:-}"
if [ ${#need_pkgs[@]} -gt 0 ]; then
	echo "installing: ${need_pkgs[*]}"
	[ "$(id -u)" = 0 ] || unavailable "missing packages (${need_pkgs[*]}); run as root or install them"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need_pkgs[@]}" \
		>"$LOG/apt.log" 2>&1 || { tail -20 "$LOG/apt.log"; unavailable "apt-get install failed for ${need_pkgs[*]}"; }
fi
[ -f "$TARBALL" ] || die "no kernel tarball at $TARBALL"
end

# ---- 2. the kernel tree ----
begin "2 extract"
stamp_want="$(stat -c '%n %s %Y' "$TARBALL")"
if [ "$KEEP" = 1 ]; then
	[ -f "$WORK/stamp.extract" ] && [ -d "$KSRC" ] || die "--keep: no prepared tree in $WORK"
	echo "reusing $KSRC (--keep)"
elif [ -f "$WORK/stamp.extract" ] && [ -d "$KSRC" ] && [ "$(cat "$WORK/stamp.extract")" = "$stamp_want" ]; then
	echo "reusing $KSRC"
else
	# A full extraction: Kconfig needs every Kconfig file of the tree, prepare needs arch/x86,
	# scripts, tools/objtool and include; picking those out with tar wildcards still decompresses the
	# whole tarball and measured slower than extracting everything (91 s against 46 s here).
	rm -rf "$KSRC" "$PRISTINE" "$WORK/touched.list" "$WORK"/stamp.* "$WORK/.extract.tmp"
	mkdir -p "$WORK/.extract.tmp"
	"${NICE[@]}" tar -xJf "$TARBALL" -C "$WORK/.extract.tmp"
	[ -f "$WORK/.extract.tmp/linux-source-6.1/Makefile" ] || die "$TARBALL has no linux-source-6.1/Makefile"
	mv "$WORK/.extract.tmp/linux-source-6.1" "$KSRC"
	rmdir "$WORK/.extract.tmp"
	echo "$stamp_want" >"$WORK/stamp.extract"
fi
echo "kernel $(make -s -C "$KSRC" kernelversion 2>/dev/null) in $KSRC"
end

# ---- 3. restore the touched files, then apply every patch (dry run first) ----
begin "3 patches"
shopt -s nullglob
patches=("$PATCHDIR"/*.patch)
shopt -u nullglob
[ ${#patches[@]} -gt 0 ] || die "no patches in $PATCHDIR"
mkdir -p "$PRISTINE"
touch "$WORK/touched.list"
# Every path any patch names, plus every path an earlier run touched (a patch may have dropped one).
{
	cat "$WORK/touched.list"
	sed -n -e 's#^--- a/\([^[:space:]]*\).*#\1#p' -e 's#^+++ b/\([^[:space:]]*\).*#\1#p' "${patches[@]}"
} | sort -u >"$WORK/touched.list.new"
mv "$WORK/touched.list.new" "$WORK/touched.list"
while read -r f; do
	[ -n "$f" ] || continue
	case $f in /*|*..*) die "suspicious path in a patch: $f" ;; esac
	if [ -e "$PRISTINE/$f" ]; then
		cp -p "$PRISTINE/$f" "$KSRC/$f"
	elif [ -e "$PRISTINE/$f.gio-absent" ]; then
		rm -f "$KSRC/$f"
	elif [ -e "$KSRC/$f" ]; then # first time this path is touched: the tree still has it pristine
		mkdir -p "$(dirname "$PRISTINE/$f")"
		cp -p "$KSRC/$f" "$PRISTINE/$f"
	else
		mkdir -p "$(dirname "$PRISTINE/$f")"
		touch "$PRISTINE/$f.gio-absent"
	fi
done <"$WORK/touched.list"
for p in "${patches[@]}"; do
	echo "applying $(basename "$p")"
	patch -d "$KSRC" -p1 --dry-run --forward --batch --fuzz=0 <"$p" >"$LOG/patch.log" 2>&1 ||
		{ cat "$LOG/patch.log"; die "$(basename "$p") does not apply (dry run)"; }
	patch -d "$KSRC" -p1 --forward --batch --fuzz=0 --no-backup-if-mismatch <"$p" >"$LOG/patch.log" 2>&1 ||
		{ cat "$LOG/patch.log"; die "$(basename "$p") failed to apply"; }
	grep -i 'offset' "$LOG/patch.log" || true
done
end

# ---- 4. the uapi contract (needs no build) ----
# Two translation units print every size, offset, signedness and constant, one from the patched
# kfd_ioctl.h and one from gio_kfd.h; the outputs must be identical. A third includes both headers in
# both orders (they share an include guard) to show a program may use them together.
begin "4 contract"
CT=$WORK/contract
rm -rf "$CT"
mkdir -p "$CT/linux"
cp "$KSRC/include/uapi/linux/kfd_ioctl.h" "$CT/linux/kfd_ioctl.h"
# kfd_ioctl.h includes <drm/drm.h>, which /usr/include may lack; take the tree's (headers_install
# would strip its __user, hence -D__user= below). <linux/types.h> and <linux/ioctl.h> come from
# /usr/include like in any program.
cp -r "$KSRC/include/uapi/drm" "$CT/drm"
cat >"$CT/print.h" <<'EOF'
#include <stddef.h>
#include <stdio.h>
#define S struct kfd_ioctl_gio_export_dmabuf_args
#define F(m) printf(#m " off=%zu size=%zu signed=%d\n", offsetof(S, m), sizeof(((S *)0)->m), \
		     (__typeof__(((S *)0)->m))-1 < 0)
int main(void)
{
	printf("sizeof=%zu align=%zu\n", sizeof(S), _Alignof(S));
	F(va); F(size); F(offset); F(gpu_id); F(what); F(flags); F(dmabuf_fd); F(version); F(pad);
	printf("version=%d probe=%d hdp=%d vram=%d\n", GIO_KFD_EXPORT_VERSION, GIO_KFD_EXPORT_PROBE,
	       GIO_KFD_EXPORT_HDP_FLUSH, GIO_KFD_EXPORT_VRAM);
	printf("ioctl=0x%lx nr=0x%lx\n", (unsigned long)AMDKFD_IOC_GIO_EXPORT_DMABUF,
	       (unsigned long)_IOC_NR(AMDKFD_IOC_GIO_EXPORT_DMABUF));
	return 0;
}
EOF
printf '#include <linux/kfd_ioctl.h>\n#include "print.h"\n' >"$CT/kernel.c"
printf '#include "%s"\n#include "print.h"\n' "$CONTRACT" >"$CT/contract.c"
printf '#include "%s"\n#include <linux/kfd_ioctl.h>\n#include "print.h"\n' "$CONTRACT" >"$CT/both1.c"
printf '#include <linux/kfd_ioctl.h>\n#include "%s"\n#include "print.h"\n' "$CONTRACT" >"$CT/both2.c"
for t in kernel contract both1 both2; do
	gcc -std=gnu11 -Wall -Wextra -Wno-type-limits -Werror -D__user= -I"$CT" -o "$CT/$t" "$CT/$t.c" || die "contract: $t.c does not compile"
	"$CT/$t" >"$CT/$t.out"
done
diff -u "$CT/contract.out" "$CT/kernel.out" || die "contract: patched kfd_ioctl.h and gio_kfd.h disagree"
cmp -s "$CT/kernel.out" "$CT/both1.out" && cmp -s "$CT/kernel.out" "$CT/both2.out" ||
	die "contract: including both headers changes the definitions"
grep -q ' nr=0x40$' "$CT/kernel.out" || die "contract: ioctl nr is not 0x40"
# The patched uapi header must keep 6.1's command range (an unpatched user sees no change).
grep -q '^#define AMDKFD_COMMAND_END[[:space:]]*0x24$' "$KSRC/include/uapi/linux/kfd_ioctl.h" ||
	die "contract: AMDKFD_COMMAND_END changed"
sed 's/^/  /' "$CT/kernel.out"
end

if [ "$ONLY_PATCHES" = 1 ]; then
	echo "--only-patches: stopping before configure/compile"
	exit 0
fi

# ---- 5. configure ----
begin "5 configure"
cfg_want="$(stat -c '%n %s %Y' "$CONFIG_XZ") ${CONFIG_SET[*]}"
if [ "$KEEP" = 1 ]; then
	[ -f "$KSRC/.config" ] || die "--keep: $KSRC is not configured"
	echo "keeping $KSRC/.config (--keep)"
elif [ -f "$KSRC/.config" ] && [ -f "$WORK/stamp.config" ] && [ "$(cat "$WORK/stamp.config")" = "$cfg_want" ]; then
	echo "config unchanged"
else
	[ -f "$CONFIG_XZ" ] || die "no Debian config at $CONFIG_XZ (package linux-config-6.1)"
	xz -dc "$CONFIG_XZ" >"$KSRC/.config"
	"$KSRC/scripts/config" --file "$KSRC/.config" "${CONFIG_SET[@]}"
	"${NICE[@]}" make -s -C "$KSRC" olddefconfig >"$LOG/config.log" 2>&1 ||
		{ tail -30 "$LOG/config.log"; die "make olddefconfig failed"; }
	echo "$cfg_want" >"$WORK/stamp.config"
fi
for c in "${CONFIG_WANT[@]}"; do
	grep -qx "$c" "$KSRC/.config" || die "config: want $c, have '$(grep "^${c%%=*}=" "$KSRC/.config" || echo unset)'"
done
echo "config: ${CONFIG_WANT[*]}"
end

# ---- 6. prepare ----
begin "6 prepare"
if [ "$KEEP" = 1 ]; then
	[ -f "$KSRC/include/generated/autoconf.h" ] || die "--keep: $KSRC was never prepared"
	echo "skipped (--keep)"
else
	"${NICE[@]}" make -C "$KSRC" -j"$JOBS" W=1 prepare >"$LOG/prepare.log" 2>&1 ||
		{ tail -40 "$LOG/prepare.log"; die "make prepare failed (log: $LOG/prepare.log)"; }
fi
end

# ---- 7. Kbuild wiring: the new object is linked into amdgpu.ko ----
begin "7 wiring"
files=$(make -s -f - <<EOF
AMDKFD_PATH := ../amdkfd
include $KSRC/drivers/gpu/drm/amd/amdkfd/Makefile
all: ; @echo \$(AMDKFD_FILES)
EOF
)
for o in "${OBJECTS[@]}"; do
	rel=../amdkfd/$(basename "$o")
	case " $files " in *" $rel "*) ;; *) die "wiring: $rel is not in AMDKFD_FILES" ;; esac
done
grep -q '^amdgpu-y += $(AMDKFD_FILES)' "$KSRC/drivers/gpu/drm/amd/amdgpu/Makefile" ||
	die "wiring: amdgpu/Makefile no longer links AMDKFD_FILES"
echo "AMDKFD_FILES has ${OBJECTS[*]##*/}"
end

# ---- 8. compile the touched objects with W=1; any warning fails ----
# prepare ran with W=1 too: the flags of its generated files must not flip between the two make calls,
# or every run would rebuild them.
begin "8 compile"
# Stale objects would let make skip a compile whose warnings we must see.
for o in "${OBJECTS[@]}"; do rm -f "$KSRC/$o"; done
rc=0
"${NICE[@]}" make -C "$KSRC" -j"$JOBS" W=1 "${OBJECTS[@]}" >"$LOG/compile.log" 2>&1 || rc=$?
cat "$LOG/compile.log"
[ $rc -eq 0 ] || die "compile failed"
if grep -Ei 'warning:|error:' "$LOG/compile.log" >/dev/null; then
	die "compiler warnings in the touched objects (see above)"
fi
for o in "${OBJECTS[@]}"; do [ -s "$KSRC/$o" ] || die "compile: $o was not produced"; done
# The ioctl table really calls into the new object.
nm "$KSRC/${OBJECTS[1]}" | grep -q ' T kfd_ioctl_gio_export_dmabuf$' || die "kfd_gio_export.o lacks the ioctl"
nm "$KSRC/${OBJECTS[0]}" | grep -q ' U kfd_ioctl_gio_export_dmabuf$' || die "kfd_chardev.o does not call the ioctl"
echo "compiled warning-free: ${OBJECTS[*]##*/}"
end

# ---- 9. the out-of-tree peer-mem module (another part of GIO), when present ----
if [ -f "$PEERMEM/Makefile" ]; then
	begin "9 peer-mem"
	hdr=$(ls -d /usr/src/linux-headers-6.1.0-*-amd64 2>/dev/null | sort -V | tail -1 || true)
	if [ -z "$hdr" ]; then
		pkg=$(apt-cache search --names-only '^linux-headers-6\.1\.0-[0-9]+-amd64$' | awk '{print $1}' | sort -V | tail -1)
		[ -n "$pkg" ] || die "peer-mem: no linux-headers-6.1.0-*-amd64 package offered by apt"
		[ "$(id -u)" = 0 ] || die "peer-mem: install $pkg (needs root)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$pkg" >"$LOG/apt.log" 2>&1 ||
			{ tail -20 "$LOG/apt.log"; die "apt-get install $pkg failed"; }
		hdr=/usr/src/${pkg}
	fi
	echo "KDIR=$hdr"
	rc=0
	"${NICE[@]}" make -C "$PEERMEM" KDIR="$hdr" -j"$JOBS" >"$LOG/peer-mem.log" 2>&1 || rc=$?
	cat "$LOG/peer-mem.log"
	[ $rc -eq 0 ] || die "peer-mem build failed"
	end
else
	echo "== 9 peer-mem: $PEERMEM/Makefile not present, skipped"
fi
