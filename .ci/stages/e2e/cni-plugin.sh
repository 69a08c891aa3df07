#!/bin/sh
# A CNI plugin for the end-to-end suite, installed as "podconfig-e2e" and as "loopback". It gives
# the pod's network namespace a fixed address on an eth0 whose veth peer stays in the same
# namespace: pods get an IP and a network of their own, and no packet can reach the host or leave
# the machine. Only the ADD/DEL/CHECK/VERSION commands containerd's CRI plugin sends are handled.
set -eu
conf=$(cat)
version=$(printf '%s' "$conf" | sed -n 's/.*"cniVersion" *: *"\([^"]*\)".*/\1/p')
[ -n "$version" ] || version=0.4.0
case "${CNI_COMMAND:-}" in
VERSION)
  printf '{"cniVersion":"%s","supportedVersions":["0.3.0","0.3.1","0.4.0","1.0.0"]}\n' "$version"
  exit 0 ;;
DEL|CHECK)
  exit 0 ;;
ADD) ;;
*)
  printf '{"cniVersion":"%s","code":4,"msg":"unknown CNI_COMMAND %s"}\n' "$version" "${CNI_COMMAND:-}"
  exit 1 ;;
esac
in_ns() { nsenter --net="$CNI_NETNS" "$@"; }
if [ "$(basename "$0")" = loopback ]; then
  in_ns ip link set lo up
  printf '{"cniVersion":"%s","interfaces":[{"name":"lo","sandbox":"%s"}],"ips":[{"version":"4","address":"127.0.0.1/8","interface":0}],"dns":{}}\n' "$version" "$CNI_NETNS"
  exit 0
fi
address=$(printf '%s' "$conf" | sed -n 's/.*"address" *: *"\([^"]*\)".*/\1/p')
in_ns ip link add "$CNI_IFNAME" type veth peer name "${CNI_IFNAME}peer"
in_ns ip addr add "$address" dev "$CNI_IFNAME"
in_ns ip link set "${CNI_IFNAME}peer" up
in_ns ip link set "$CNI_IFNAME" up
printf '{"cniVersion":"%s","interfaces":[{"name":"%s","sandbox":"%s"}],"ips":[{"version":"4","address":"%s","interface":0}],"dns":{}}\n' \
  "$version" "$CNI_IFNAME" "$CNI_NETNS" "$address"
