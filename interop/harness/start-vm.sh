#!/bin/bash
# Boot the siw interop guest in the background and return once siw0 is up.
#
#   start-vm.sh                                  # stock siw
#   IWARP_VM_SIW_VARIANT=crc start-vm.sh
#   IWARP_VM_SHARE=/path/to/repo start-vm.sh     # that folder at /mnt/host in the guest (read-only)
#
# Network (qemu user-mode/slirp, restrict=on: the guest reaches nothing but the
# explicit forwards below; every host-side socket is on 127.0.0.1):
#   host 127.0.0.1:P      -> guest 10.0.2.15:P     for P in $IWARP_VM_HOSTFWD_PORTS
#   guest 10.0.2.100:P    -> host 127.0.0.1:P      for P in $IWARP_VM_GUESTFWD_PORTS
#   host 127.0.0.1:$IWARP_VM_AGENT_PORT -> guest command agent (used by guest-run.sh)
# Shared folders (9p, read-only): $IWARP_VM_JDK at /opt/jdk, $IWARP_VM_SHARE at /mnt/host.
# State: $IWARP_VM_STATE/{qemu.pid,console.log,console.sock,monitor.sock,vm.env}
# Interactive console: socat -,raw,echo=0 UNIX-CONNECT:$IWARP_VM_STATE/console.sock
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

I=$IWARP_VM_IMAGE
S=$IWARP_VM_STATE
[ -f "$I/vmlinuz" ] && [ -f "$I/initrd.img" ] || iwarp_vm_die "no image in $I (key $IWARP_VM_IMAGE_KEY): run $HERE/build-vm.sh first"
command -v qemu-system-x86_64 >/dev/null || iwarp_vm_die "qemu-system-x86_64 missing: run $HERE/build-vm.sh"
command -v socat >/dev/null || iwarp_vm_die "socat missing: run $HERE/build-vm.sh"
mkdir -p "$S"

is_our_qemu() { # pid -> true if it is the qemu this harness started
    local pid=$1
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] &&
        tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "-name iwarp-vm" &&
        tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$S/monitor.sock"
}
if [ -f "$S/qemu.pid" ] && is_our_qemu "$(cat "$S/qemu.pid")"; then
    iwarp_vm_log "already running (pid $(cat "$S/qemu.pid")); use stop-vm.sh first"
    exit 0
fi
rm -f "$S"/qemu.pid "$S"/console.log "$S"/console.sock "$S"/monitor.sock "$S"/vm.env

# Host ports must be free (a leftover listener would make qemu fail or steal traffic).
for p in $IWARP_VM_AGENT_PORT $IWARP_VM_HOSTFWD_PORTS; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
        iwarp_vm_die "host port 127.0.0.1:$p is already in use"
    fi
done

netdev="user,id=n0,restrict=on,net=10.0.2.0/24,host=10.0.2.2"
netdev+=",hostfwd=tcp:127.0.0.1:$IWARP_VM_AGENT_PORT-$IWARP_VM_GUEST_IP:$IWARP_VM_GUEST_AGENT_PORT"
for p in $IWARP_VM_HOSTFWD_PORTS; do
    netdev+=",hostfwd=tcp:127.0.0.1:$p-$IWARP_VM_GUEST_IP:$p"
done
for p in $IWARP_VM_GUESTFWD_PORTS; do
    # one socat per guest connection, to the host loopback only
    netdev+=",guestfwd=tcp:$IWARP_VM_GUESTFWD_ADDR:$p-cmd:socat -t 2 - TCP4:127.0.0.1:$p"
done

shares=()
share() { # tag host-folder: a read-only 9p export the guest's init mounts by its tag
    [ -n "$2" ] || return 0
    [ -d "$2" ] || iwarp_vm_die "folder to share as '$1' does not exist: $2"
    case "$2" in *,*) iwarp_vm_die "folder to share as '$1' has a comma in its path: $2";; esac
    shares+=(-virtfs "local,path=$2,mount_tag=$1,security_model=none,readonly=on")
}
share jdk "$IWARP_VM_JDK"
share host "$IWARP_VM_SHARE"

launch() { # $1 = kvm|tcg
    local accel cpu
    if [ "$1" = kvm ]; then accel="kvm"; cpu="host,-arch-capabilities"
    else accel="tcg,thread=multi"; cpu="max"; fi
    rm -f "$S/console.log" "$S/qemu.pid"
    qemu-system-x86_64 \
        -name iwarp-vm,process=iwarp-vm \
        -accel "$accel" -cpu "$cpu" -smp "$IWARP_VM_SMP" -m "$IWARP_VM_MEM" \
        -display none -no-reboot \
        -kernel "$I/vmlinuz" -initrd "$I/initrd.img" \
        -append "console=ttyS0 panic=-1 loglevel=6 iwarp.siw=$IWARP_VM_SIW_VARIANT iwarp.agent_port=$IWARP_VM_GUEST_AGENT_PORT" \
        -chardev "socket,id=ser0,path=$S/console.sock,server=on,wait=off,logfile=$S/console.log" \
        -serial chardev:ser0 \
        -monitor "unix:$S/monitor.sock,server=on,wait=off" \
        -netdev "$netdev" -device virtio-net-pci,netdev=n0 \
        "${shares[@]}" \
        -pidfile "$S/qemu.pid" -daemonize
}
wait_for() { # pattern seconds -> 0 when it shows up in the console log
    local i
    for ((i = 0; i < $2 * 5; i++)); do
        grep -qE "$1" "$S/console.log" 2>/dev/null && return 0
        [ -f "$S/qemu.pid" ] && is_our_qemu "$(cat "$S/qemu.pid")" || return 2
        sleep 0.2
    done
    return 1
}
kill_ours() {
    local pid; pid=$(cat "$S/qemu.pid" 2>/dev/null || true)
    if is_our_qemu "$pid"; then kill "$pid"; for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done; fi
    rm -f "$S/qemu.pid"
}

t0=$(date +%s.%N)
accel=$IWARP_VM_ACCEL
if [ "$accel" = auto ]; then
    # KVM is tried once per machine; the verdict is cached.  (Seen on nested setups:
    # /dev/kvm opens but the guest hangs right after the boot loader.)
    if [ -f "$IWARP_VM_CACHE/accel.verdict" ]; then accel=$(cat "$IWARP_VM_CACHE/accel.verdict")
    elif [ -w /dev/kvm ]; then accel=probe
    else accel=tcg; fi
fi
if [ "$accel" = probe ] || [ "$accel" = kvm ]; then
    if launch kvm 2>"$S/qemu-kvm.err" && wait_for 'Linux version|\[iwarp-init\]' 25; then
        echo kvm > "$IWARP_VM_CACHE/accel.verdict"; accel=kvm
    else
        kerr=$(head -1 "$S/qemu-kvm.err" 2>/dev/null || true)
        [ "$accel" = kvm ] && [ "$IWARP_VM_ACCEL" = kvm ] && { kill_ours; iwarp_vm_die "KVM boot failed ($(head -c 300 "$S/qemu-kvm.err"))"; }
        iwarp_vm_log "KVM unusable here (no kernel output within 25s${kerr:+: $kerr}); falling back to TCG"
        kill_ours; echo tcg > "$IWARP_VM_CACHE/accel.verdict"; accel=tcg
    fi
fi
if [ "$accel" = tcg ]; then launch tcg; fi
pid=$(cat "$S/qemu.pid")
iwarp_vm_log "qemu pid $pid ($accel), waiting for siw (timeout ${IWARP_VM_BOOT_TIMEOUT}s)"

rc=0; wait_for 'IWARP-VM-(READY|FAILED)' "$IWARP_VM_BOOT_TIMEOUT" || rc=$?
if [ $rc -ne 0 ] || grep -q IWARP-VM-FAILED "$S/console.log"; then
    tail -30 "$S/console.log" >&2 || true
    kill_ours
    iwarp_vm_die "guest did not come up (rc=$rc)"
fi
{
    echo "IWARP_VM_PID=$pid"
    echo "IWARP_VM_ACCEL_USED=$accel"
    echo "IWARP_VM_SIW_VARIANT=$IWARP_VM_SIW_VARIANT"
    echo "IWARP_VM_GUEST_IP=$IWARP_VM_GUEST_IP"
    echo "IWARP_VM_AGENT_PORT=$IWARP_VM_AGENT_PORT"
    echo "IWARP_VM_HOSTFWD_PORTS=\"$IWARP_VM_HOSTFWD_PORTS\""
    echo "IWARP_VM_GUESTFWD_ADDR=$IWARP_VM_GUESTFWD_ADDR"
    echo "IWARP_VM_GUESTFWD_PORTS=\"$IWARP_VM_GUESTFWD_PORTS\""
    echo "IWARP_VM_JDK=$IWARP_VM_JDK"
    echo "IWARP_VM_SHARE=$IWARP_VM_SHARE"
} > "$S/vm.env"
# the agent must answer and siw0 must be ACTIVE
for _ in $(seq 1 50); do
    if out=$(IWARP_VM_AGENT_PORT=$IWARP_VM_AGENT_PORT "$HERE/guest-run.sh" rdma link show siw0/1 2>/dev/null) &&
       echo "$out" | grep -q 'state ACTIVE'; then
        t1=$(date +%s.%N)
        iwarp_vm_log "ready in $(echo "$t1 - $t0" | bc 2>/dev/null || awk "BEGIN{print $t1-$t0}")s: $out"
        exit 0
    fi
    sleep 0.5
done
iwarp_vm_log "agent or siw0 not ready; console tail:"; tail -20 "$S/console.log" >&2
kill_ours
exit 1
