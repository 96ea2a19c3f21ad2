#!/bin/bash
# Run a command inside the siw guest through its command agent.
#
#   guest-run.sh CMD...            run "CMD..." with sh -c in the guest (like ssh),
#                                          stream stdout+stderr, exit with its status
#   guest-run.sh -t SECS CMD...    same, killed in the guest after SECS seconds
#   guest-run.sh -b NAME CMD...    start in the background (own session);
#                                          log /tmp/bg/NAME.log, pid /tmp/bg/NAME.pid
#   guest-run.sh -k NAME           stop background job NAME (its process group)
#
# Exit status 255 = agent unreachable / connection lost.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"
port=$IWARP_VM_AGENT_PORT

q() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }   # single-quote for sh

mode=fg; secs=; name=
case "${1:-}" in
-t) secs=$2; shift 2 ;;
-b) mode=bg; name=$2; shift 2 ;;
-k) mode=kill; name=$2; shift 2 ;;
-h|--help|"") sed -n '2,12p' "$0"; exit 2 ;;
esac
case "$name" in *[!A-Za-z0-9_.-]*) iwarp_vm_die "bad job name '$name'";; esac
cmd="$*"
case $mode in
fg) [ -n "$secs" ] && cmd="timeout $secs sh -c $(q "$cmd")" ;;
bg) cmd="mkdir -p /tmp/bg; setsid sh -c $(q "$cmd") </dev/null >/tmp/bg/$name.log 2>&1 &
echo \$! > /tmp/bg/$name.pid; echo \"started $name pid \$! (log /tmp/bg/$name.log)\"" ;;
kill) cmd="p=\$(cat /tmp/bg/$name.pid) || exit 1; kill -TERM -\$p 2>/dev/null || kill -TERM \$p; sleep 0.3; kill -0 \$p 2>/dev/null && kill -KILL -\$p 2>/dev/null; rm -f /tmp/bg/$name.pid; echo stopped $name" ;;
esac

exec 3<>"/dev/tcp/127.0.0.1/$port" || { echo "guest-run: agent on 127.0.0.1:$port unreachable (VM running?)" >&2; exit 255; }
printf '%s\n' "$(printf '%s' "$cmd" | base64 -w0)" >&3

rc=255; got=0; have=0; prev=
while IFS= read -r line <&3 || [ -n "$line" ]; do
    if [[ $line =~ ^@@IWARP_RC@@\ ([0-9]+)$ ]]; then
        rc=${BASH_REMATCH[1]}; got=1
        # the agent puts a newline before the marker; drop it if it made an empty line
        [ $have = 1 ] && [ -n "$prev" ] && printf '%s\n' "$prev"
        have=0; break
    fi
    [ $have = 1 ] && printf '%s\n' "$prev"
    prev=$line; have=1
done
[ $have = 1 ] && printf '%s\n' "$prev"
exec 3<&-
if [ $got = 0 ]; then echo "guest-run: connection lost before the command finished" >&2; exit 255; fi
exit "$rc"
