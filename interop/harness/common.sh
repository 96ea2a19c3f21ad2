# Shared settings for the siw interop VM harness.  Sourced by the other scripts.
# Everything can be overridden from the environment.

# Where the built image and all downloaded packages live (outside any repo).
IWARP_VM_CACHE=${IWARP_VM_CACHE:-/var/cache/iwarp-vm}
# The image's cache key: a hash of what the image is built from (build-vm.sh and guest/), so that
# an image built by another version of this harness is never booted; each version has its own folder.
IWARP_VM_IMAGE_KEY=$(cat "$HERE/build-vm.sh" "$HERE"/guest/* | sha256sum | cut -c1-12)
IWARP_VM_IMAGE=${IWARP_VM_IMAGE:-$IWARP_VM_CACHE/image-$IWARP_VM_IMAGE_KEY}
# Runtime state of a running VM (pid file, monitor socket, console log, port map).
IWARP_VM_STATE=${IWARP_VM_STATE:-$IWARP_VM_CACHE/run}

# Host-side loopback port of the guest command agent (guest listens on 5555).
IWARP_VM_AGENT_PORT=${IWARP_VM_AGENT_PORT:-10555}
IWARP_VM_GUEST_AGENT_PORT=5555

# host 127.0.0.1:P  ->  guest 10.0.2.15:P   (host connects INTO the guest)
# 7174 = rping default, 7471 = ucmatose/rdma_server default, 18515 = perftest default
IWARP_VM_HOSTFWD_PORTS=${IWARP_VM_HOSTFWD_PORTS:-"7174 7471 18515 20000 20001 20002 20003"}
# guest 10.0.2.100:P  ->  host 127.0.0.1:P  (guest connects OUT to a host listener)
IWARP_VM_GUESTFWD_PORTS=${IWARP_VM_GUESTFWD_PORTS:-"21000 21001 21002 21003 27174 27471 28515"}
IWARP_VM_GUESTFWD_ADDR=10.0.2.100

IWARP_VM_GUEST_IP=10.0.2.15
IWARP_VM_MEM=${IWARP_VM_MEM:-1024}
IWARP_VM_SMP=${IWARP_VM_SMP:-2}
# stock | crc | p2p | crc-p2p | mpav1 | strict (see build-vm.sh)
IWARP_VM_SIW_VARIANT=${IWARP_VM_SIW_VARIANT:-stock}
# auto | kvm | tcg.  KVM is tried only when asked for or when 'auto' finds it usable.
IWARP_VM_ACCEL=${IWARP_VM_ACCEL:-auto}
IWARP_VM_BOOT_TIMEOUT=${IWARP_VM_BOOT_TIMEOUT:-180}
# Host folders shared read-only into the guest (qemu -virtfs, 9p over virtio), each skipped when empty
# or missing: a JDK, mounted at /opt/jdk (its bin/ is on the guest's PATH), and any folder, mounted
# at /mnt/host (the interop suite shares the repository, so the guest runs this checkout's classes).
IWARP_VM_JDK=${IWARP_VM_JDK-/usr/lib/jvm/temurin-25-jdk-amd64}
IWARP_VM_SHARE=${IWARP_VM_SHARE:-}

iwarp_vm_log() { printf '[iwarp-vm] %s\n' "$*" >&2; }
iwarp_vm_die() { iwarp_vm_log "ERROR: $*"; exit 1; }
