#!/bin/bash
# Build a minimal qemu guest (kernel + initramfs) that runs the Linux soft-iWARP
# driver (siw) with rdma-core user tools, entirely from Debian packages.
#
#   build-vm.sh                     # build (re-uses downloads already in the cache)
#   build-vm.sh --if-missing        # build only if the cache lacks this version's image
#   IWARP_VM_REBUILD=1 build-vm.sh  # throw away the old image first
#
# Output: $IWARP_VM_IMAGE/{vmlinuz,initrd.img,manifest.txt} (common.sh: a folder per image key)
#
# Why siw is compiled here: Debian bookworm's kernels (amd64, cloud, rt) are built
# with "# CONFIG_RDMA_SIW is not set", so no siw.ko ships in any linux-image package.
# ib_core/iw_cm/rdma_cm/ib_uverbs/rdma_ucm do ship as modules, so siw is built as an
# out-of-tree module from Debian's own linux-source-X.Y package against the matching
# linux-headers package.  Everything comes from the machine's configured apt archive;
# no host name of any archive is named here.
#
# siw has no module parameters in Linux 6.1: its protocol knobs are compile-time
# constants in siw_main.c.  So several variants are built (all with module name "siw");
# start-vm.sh picks one with IWARP_VM_SIW_VARIANT:
#   stock    : upstream defaults (MPA rev 2 enhanced, CRC not requested, no P2P/RTR)
#   crc      : mpa_crc_required = true (requests CRC, refuses a reply without CRC)
#   p2p      : peer_to_peer = true (as initiator requests P2P with WRITE|READ RTR)
#   crc-p2p  : both of the above
#   mpav1    : mpa_version = 1 (sends MPA revision 1 requests, no IRD/ORD header)
#   strict   : mpa_crc_strict = true (CRC off enforced: rejects peers that ask for CRC)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

if [ "${1:-}" = --if-missing ] && [ "${IWARP_VM_REBUILD:-0}" != 1 ] &&
   [ -f "$IWARP_VM_IMAGE/vmlinuz" ] && [ -f "$IWARP_VM_IMAGE/initrd.img" ] && [ -f "$IWARP_VM_IMAGE/manifest.txt" ]; then
    iwarp_vm_log "image $IWARP_VM_IMAGE is built"
    exit 0
fi

SIW_VARIANTS=${IWARP_VM_SIW_VARIANTS:-"stock crc p2p crc-p2p mpav1 strict"}
# User-space packages for the guest (their dependency closure is added by apt).
GUEST_PKGS="busybox-static libibverbs1 ibverbs-providers librdmacm1 rdmacm-utils
 ibverbs-utils perftest iproute2 kmod tcpdump socat dash"
# Kernel modules to load in the guest (dependencies are resolved with depmod); 9p and
# 9pnet_virtio mount the host folders start-vm.sh shares (a JDK, the repository).
GUEST_MODS="virtio_pci virtio_net e1000 crc32c_generic crc32c-intel libcrc32c ib_core
 ib_uverbs iw_cm ib_cm rdma_cm rdma_ucm siw 9pnet_virtio 9p"

[ "$(id -u)" = 0 ] || iwarp_vm_die "must run as root (apt-get, dpkg, depmod)"
export DEBIAN_FRONTEND=noninteractive

C=$IWARP_VM_CACHE
mkdir -p "$C"
exec 9>"$C/.build.lock"
flock -n 9 || iwarp_vm_die "another build-vm.sh is running"

# ---------------------------------------------------------------- host tools
need_pkgs=()
chk() { command -v "$1" >/dev/null 2>&1 || need_pkgs+=("$2"); }
chk qemu-system-x86_64 qemu-system-x86
chk depmod kmod
chk cpio cpio
chk socat socat
chk xz xz-utils
chk make make
chk flock util-linux
if [ ! -f "$C/.apt-updated" ] || [ -n "$(find "$C/.apt-updated" -mmin +1440 2>/dev/null)" ]; then
    iwarp_vm_log "apt-get update"
    apt-get update -q >/dev/null
    touch "$C/.apt-updated"
fi
# Which kernel ABI does linux-image-amd64 point at?
KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
[ -n "$KPKG" ] || iwarp_vm_die "cannot resolve linux-image-amd64"
KVER=${KPKG#linux-image-}                 # e.g. 6.1.0-56-amd64
KSERIES=$(echo "$KVER" | cut -d. -f1,2)   # e.g. 6.1
iwarp_vm_log "guest kernel: $KPKG (source series $KSERIES)"
[ -d "/usr/src/linux-headers-$KVER" ] || need_pkgs+=("linux-headers-$KVER")
if [ ${#need_pkgs[@]} -gt 0 ]; then
    iwarp_vm_log "installing host packages: ${need_pkgs[*]}"
    apt-get install -y -q --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

if [ "${IWARP_VM_REBUILD:-0}" = 1 ]; then rm -rf "$IWARP_VM_IMAGE" "$C/build"; fi

# ---------------------------------------------------------------- downloads
mkdir -p "$C/debs/partial" "$C/apt/debs/partial" "$C/apt/state/lists"
cd "$C/debs"
for p in "$KPKG" "linux-source-$KSERIES"; do
    if ! ls "${p}"_*.deb >/dev/null 2>&1; then
        iwarp_vm_log "apt-get download $p"
        apt-get download -q "$p" >/dev/null 2>&1 || apt-get download "$p"
    fi
done
KDEB=$(ls -1 "$C/debs/${KPKG}"_*.deb | tail -1)
SDEB=$(ls -1 "$C/debs/linux-source-${KSERIES}"_*.deb | tail -1)
kv=$(dpkg-deb -f "$KDEB" Version); sv=$(dpkg-deb -f "$SDEB" Version)
[ "$kv" = "$sv" ] || iwarp_vm_log "WARNING: kernel $kv but linux-source $sv"

# Guest userland: download the dependency closure with an empty dpkg status, so apt
# resolves everything the tools need without touching the host's package state.
: > "$C/apt/status"
iwarp_vm_log "downloading guest user-space packages (dependency closure)"
apt-get -q -y --no-install-recommends \
    -o Dir::State::status="$C/apt/status" \
    -o Dir::Cache::archives="$C/apt/debs" \
    -o APT::Sandbox::User=root -o Debug::NoLocking=1 \
    --download-only install $GUEST_PKGS >"$C/apt/download.log" 2>&1 \
    || { cat "$C/apt/download.log"; iwarp_vm_die "apt download failed"; }

# ---------------------------------------------------------------- kernel
K=$C/build/kernel
if [ ! -f "$K/.done" ]; then
    rm -rf "$K"; mkdir -p "$K"
    iwarp_vm_log "unpacking $(basename "$KDEB")"
    dpkg -x "$KDEB" "$K"
    touch "$K/.done"
fi
grep -q '^CONFIG_INFINIBAND=m' "$K/boot/config-$KVER" || iwarp_vm_die "kernel has no ib_core module"
if grep -q '^CONFIG_RDMA_SIW=m' "$K/boot/config-$KVER"; then
    iwarp_vm_log "note: this kernel ships siw.ko; it is replaced by the variant build"
fi

# ---------------------------------------------------------------- siw variants
S=$C/build/siw-src
if [ ! -f "$S/.done" ]; then
    rm -rf "$S"; mkdir -p "$S"
    iwarp_vm_log "extracting drivers/infiniband/sw/siw from $(basename "$SDEB")"
    dpkg-deb --fsys-tarfile "$SDEB" \
        | tar -xO "./usr/src/linux-source-$KSERIES.tar.xz" \
        | xz -dc \
        | tar -x -C "$S" --strip-components=5 \
              "linux-source-$KSERIES/drivers/infiniband/sw/siw"
    touch "$S/.done"
fi
siw_objs=$(sed -n '/^siw-y/,/^$/p' "$S/Makefile" | tr -d '\\' | sed 's/siw-y *:=//' | xargs)
[ -n "$siw_objs" ] || iwarp_vm_die "cannot read siw object list"

build_variant() {
    local v=$1 d=$C/build/siw-$1 tok
    if [ -f "$d/siw.ko" ] && [ "$d/siw.ko" -nt "$S/.done" ]; then return; fi
    rm -rf "$d"; mkdir -p "$d"
    cp "$S"/*.c "$S"/*.h "$d/"
    printf 'obj-m += siw.o\nsiw-y := %s\n' "$siw_objs" > "$d/Kbuild"
    for tok in ${v//-/ }; do
        case $tok in
        stock) ;;
        crc)    sed -i 's/^const bool mpa_crc_required;/const bool mpa_crc_required = true;/' "$d/siw_main.c"
                grep -q '^const bool mpa_crc_required = true;' "$d/siw_main.c" ;;
        strict) sed -i 's/^const bool mpa_crc_strict;/const bool mpa_crc_strict = true;/' "$d/siw_main.c"
                grep -q '^const bool mpa_crc_strict = true;' "$d/siw_main.c" ;;
        p2p)    sed -i 's/^const bool peer_to_peer;/const bool peer_to_peer = true;/' "$d/siw_main.c"
                grep -q '^const bool peer_to_peer = true;' "$d/siw_main.c" ;;
        mpav1)  sed -i 's/^u_char mpa_version = MPA_REVISION_2;/u_char mpa_version = MPA_REVISION_1;/' "$d/siw_main.c"
                grep -q '^u_char mpa_version = MPA_REVISION_1;' "$d/siw_main.c" ;;
        *) iwarp_vm_die "unknown siw variant token '$tok'" ;;
        esac || iwarp_vm_die "variant $v: source no longer matches the expected constant"
    done
    iwarp_vm_log "building siw.ko variant '$v'"
    make -s -C "/usr/src/linux-headers-$KVER" M="$d" modules >"$d/build.log" 2>&1 \
        || { tail -30 "$d/build.log"; iwarp_vm_die "siw build ($v) failed"; }
    # Record the compile-time protocol constants of this variant.
    grep -E '^(const bool|u_char) ' "$d/siw_main.c" > "$d/constants.txt"
}
for v in $SIW_VARIANTS; do build_variant "$v"; done

# ---------------------------------------------------------------- rootfs
R=$C/build/rootfs
rm -rf "$R"; mkdir -p "$R"
iwarp_vm_log "unpacking $(ls "$C"/apt/debs/*.deb | wc -l) user-space packages"
for d in "$C"/apt/debs/*.deb; do dpkg -x "$d" "$R"; done
rm -rf "$R"/usr/share/{doc,man,info,locale,lintian,bug,bash-completion,zsh} \
       "$R"/etc/{cron.*,init.d,logrotate.d,pam.d,security} 2>/dev/null || true
mkdir -p "$R"/{proc,sys,dev,tmp,run,root,mnt/host,opt/jdk,etc,bin,sbin,usr/bin,usr/sbin,usr/local/sbin,var/tmp,lib64}
# dash as /bin/sh: busybox ash (Debian builds it "standalone") would run its own
# applets (ip, modprobe, ...) instead of the real iproute2/kmod binaries in PATH
ln -sf dash "$R/bin/sh"
# busybox applets for everything the packages did not provide themselves
for a in $("$R/bin/busybox" --list-full); do
    [ -e "$R/$a" ] || [ -L "$R/$a" ] || ln -s /bin/busybox "$R/$a"
done
[ -e "$R/lib64/ld-linux-x86-64.so.2" ] || ln -sf /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$R/lib64/"
cat > "$R/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
tcpdump:x:100:101:tcpdump:/nonexistent:/bin/false
EOF
cat > "$R/etc/group" <<'EOF'
root:x:0:
tcpdump:x:101:
nogroup:x:65534:
EOF
printf '127.0.0.1 localhost\n10.0.2.15 iwarp-vm\n10.0.2.100 host-loopback\n' > "$R/etc/hosts"
echo iwarp-vm > "$R/etc/hostname"
printf 'passwd: files\ngroup: files\nhosts: files\n' > "$R/etc/nsswitch.conf"
printf 'include /etc/ld.so.conf.d/*.conf\n' > "$R/etc/ld.so.conf"
ldconfig -r "$R" 2>/dev/null || iwarp_vm_log "warning: ldconfig -r failed (loader falls back to default paths)"

# kernel modules: stock modules for the requested set plus dependencies,
# the stock siw variant goes to updates/, every variant under /lib/siw-variants/
MD=$K/lib/modules/$KVER
mkdir -p "$MD/updates" && cp "$C/build/siw-stock/siw.ko" "$MD/updates/siw.ko"
depmod -b "$K" "$KVER"
mods=$(for m in $GUEST_MODS; do
         modprobe -d "$K" -S "$KVER" --show-depends "$m" 2>/dev/null | awk '$1=="insmod"{print $2}'
       done | sort -u)
[ -n "$mods" ] || iwarp_vm_die "module resolution failed"
for f in $mods; do
    rel=${f#"$K"}; mkdir -p "$R$(dirname "$rel")"; cp "$f" "$R$rel"
done
cp "$MD"/modules.{order,builtin,builtin.modinfo} "$R/lib/modules/$KVER/" 2>/dev/null || true
depmod -b "$R" "$KVER"
for v in $SIW_VARIANTS; do
    mkdir -p "$R/lib/siw-variants/$v"
    cp "$C/build/siw-$v/siw.ko" "$C/build/siw-$v/constants.txt" "$R/lib/siw-variants/$v/"
done

install -m 0755 "$HERE/guest/init" "$R/init"
install -m 0755 "$HERE/guest/iwarp-agent" "$R/usr/local/sbin/iwarp-agent"
install -m 0755 "$HERE/guest/siw-load" "$R/usr/local/sbin/siw-load"
install -m 0755 "$HERE/guest/siw-debug" "$R/usr/local/sbin/siw-debug"

# ---------------------------------------------------------------- image
I=$IWARP_VM_IMAGE
mkdir -p "$I"
cp "$K/boot/vmlinuz-$KVER" "$I/vmlinuz.new"
iwarp_vm_log "packing initramfs"
(cd "$R" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$I/initrd.img.new"
mv -f "$I/vmlinuz.new" "$I/vmlinuz"; mv -f "$I/initrd.img.new" "$I/initrd.img"
{
    echo "built: $(date -u +%FT%TZ)"
    echo "image key: $IWARP_VM_IMAGE_KEY"
    echo "kernel: $KPKG $kv"
    echo "siw source: linux-source-$KSERIES $sv (out-of-tree build)"
    echo "siw variants: $SIW_VARIANTS"
    echo "modules:"; for f in $mods; do echo "  ${f#"$MD"/}"; done
    echo "packages:"; for d in "$C"/apt/debs/*.deb; do echo "  $(dpkg-deb -f "$d" Package) $(dpkg-deb -f "$d" Version)"; done
} > "$I/manifest.txt"
iwarp_vm_log "done: $I/vmlinuz $(du -h "$I/initrd.img" | cut -f1) initrd; manifest $I/manifest.txt"
