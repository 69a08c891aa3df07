#!/bin/bash
# The end-to-end stage: real pods on containerd + runc, driven by examples/minikubelet's code with
# podconfig generating every config. It installs containerd, runc and busybox-static from Debian,
# builds local busybox images (no registry), starts a private containerd (its own config, root,
# state, socket and CNI directories under a temporary directory; the cgroupfs driver, as there is no
# systemd), runs the suite, and stops containerd by its PID. The trap leaves no process, mount,
# network namespace or cgroup behind, also when a test fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
stage_start=$(date +%s)
here=.ci/stages/e2e

need=()
command -v containerd >/dev/null || need+=(containerd)
command -v runc >/dev/null || need+=(runc)
# The images' rootfs is the host's busybox: it must be the static build.
dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
command -v ip >/dev/null || need+=(iproute2)
command -v pgrep >/dev/null || need+=(procps)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
containerd --version
echo "installs took $(( $(date +%s) - stage_start )) s"

work=$(mktemp -d /tmp/podconfig-e2e.XXXXXX)
sock=$work/containerd.sock
# Pods' cgroups go under a cgroup root of their own (minikubelet's -cgroup-root), so the teardown
# can remove them without touching anyone else's.
cgroup_root=podconfig-e2e-$(basename "$work" | cut -d. -f2)
containerd_pid=
# containerd 1.6's shims always put their sockets in /run/containerd/s; remove that directory
# afterwards if this stage made it (the shims remove their sockets when they exit).
run_dir_existed=$([ -d /run/containerd ] && echo yes || echo no)

teardown() {
  local rc=$?
  set +e
  if [ -n "$containerd_pid" ]; then
    kill "$containerd_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$containerd_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$containerd_pid" 2>/dev/null
  fi
  # Containers the suite did not remove (a test that failed or was interrupted half-way): kill
  # them through runc, which knows them under our private root (<root>/<namespace>/<id>), and
  # their shims, which name our socket; then anything still inside our cgroups.
  if [ -d "$work/runc" ]; then
    for state in $(find "$work/runc" -name state.json 2>/dev/null); do
      local id root
      id=$(basename "$(dirname "$state")")
      root=$(dirname "$(dirname "$state")")
      runc --root "$root" kill "$id" KILL 2>/dev/null
      runc --root "$root" delete -f "$id" 2>/dev/null
    done
  fi
  for pid in $(pgrep -f -- "-address $sock" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
  local procs
  for _ in $(seq 50); do
    procs=$(find /sys/fs/cgroup/*/"$cgroup_root" /sys/fs/cgroup/"$cgroup_root" -name cgroup.procs \
      -exec cat {} + 2>/dev/null | sort -u)
    [ -z "$procs" ] && break
    kill -9 $procs 2>/dev/null
    sleep 0.1
  done
  # The shims' sockets: containerd 1.6 names them /run/containerd/s/<sha256 of address/ns/id>.
  for task in "$work"/state/io.containerd.runtime.v2.task/*/*/; do
    [ -d "$task" ] || continue
    local ns id
    id=$(basename "$task"); ns=$(basename "$(dirname "$task")")
    rm -f "/run/containerd/s/$(printf '%s' "$sock/$ns/$id" | sha256sum | cut -d' ' -f1)"
  done
  # Mounts (rootfs, subPath binds, network namespaces) below the work directory, deepest first.
  grep -F " $work" /proc/self/mountinfo | awk '{print $5}' | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null
  done
  for ctl in /sys/fs/cgroup/*/ /sys/fs/cgroup/; do
    [ -d "$ctl$cgroup_root" ] && find "$ctl$cgroup_root" -depth -type d -exec rmdir {} \; 2>/dev/null
  done
  if [ "$run_dir_existed" = no ]; then
    rmdir /run/containerd/s /run/containerd 2>/dev/null
  fi
  local left
  left=$(grep -cF " $work" /proc/self/mountinfo)
  if [ "$left" != 0 ]; then echo "e2e teardown: $left mounts left below $work"; rc=1; fi
  if pgrep -f -- "$sock" >/dev/null; then echo "e2e teardown: processes left"; pgrep -af -- "$sock"; rc=1; fi
  if compgen -G "/sys/fs/cgroup/*/$cgroup_root" >/dev/null || [ -d "/sys/fs/cgroup/$cgroup_root" ]; then
    echo "e2e teardown: cgroups left"; rc=1
  fi
  if [ "$rc" != 0 ] && [ -f "$work/containerd.log" ]; then
    echo "--- containerd log (last 40 lines)"; tail -40 "$work/containerd.log"
  fi
  # Never remove a directory something is still mounted below: the removal would go through it.
  if [ "$left" = 0 ]; then rm -rf "$work"; fi
  echo "stage 30-e2e took $(( $(date +%s) - stage_start )) s"
  exit "$rc"
}
trap teardown EXIT
trap 'exit 130' INT TERM

mkdir -p "$work/cni/bin" "$work/cni/conf" "$work/runc"
install -m 0755 "$here/cni-plugin.sh" "$work/cni/bin/podconfig-e2e"
ln -s podconfig-e2e "$work/cni/bin/loopback"
cat >"$work/cni/conf/10-podconfig-e2e.conflist" <<CONF
{"cniVersion":"0.4.0","name":"podconfig-e2e","plugins":[{"type":"podconfig-e2e","address":"10.88.0.2/24"}]}
CONF

# containerd 1.6 (Debian 12) reads configuration version 2; 2.x would need version 3 and the
# plugin names io.containerd.cri.v1.*.
cat >"$work/config.toml" <<CONF
version = 2
root = "$work/root"
state = "$work/state"
disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.internal.v1.tracing", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "$sock"
[ttrpc]
  address = "$sock.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "podconfig.local/busybox:pause"
  # Root here lacks CAP_SYS_RESOURCE: runc could not lower a container's oom_score_adj below ours.
  restrict_oom_score_adj = true
  enable_selinux = false
  disable_apparmor = true
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$work/runc/k8s.io"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "$work/cni/bin"
    conf_dir = "$work/cni/conf"
    max_conf_num = 1
CONF

"$here/images.sh" "$work/images.tar"
# Every image the suite uses is imported above. Should a pull still happen (a test naming another
# image), containerd's registry client goes through a proxy that is a closed local port, so
# nothing leaves the machine.
HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 NO_PROXY= \
  containerd --config "$work/config.toml" >"$work/containerd.log" 2>&1 &
containerd_pid=$!
for _ in $(seq 100); do
  ctr --address "$sock" version >/dev/null 2>&1 && break
  kill -0 "$containerd_pid" 2>/dev/null || { echo "containerd exited"; exit 1; }
  sleep 0.1
done
ctr --address "$sock" -n k8s.io images import "$work/images.tar" >/dev/null
echo "containerd ready, images imported at $(( $(date +%s) - stage_start )) s"

export PODCONFIG_E2E_ENDPOINT="unix://$sock" PODCONFIG_E2E_ROOT="$work/node" PODCONFIG_E2E_CGROUP_ROOT="$cgroup_root"
if [ $# -gt 0 ]; then
  # Development: run a command against this containerd instead of the suite, e.g.
  #   .ci/stages/30-e2e.sh sh -c 'go run ./examples/minikubelet -endpoint $PODCONFIG_E2E_ENDPOINT ...'
  "$@"
  exit
fi
set +e
go test -race -count=1 -v -run E2E ./examples/minikubelet/... 2>&1 | tee "$work/test.log"
status=${PIPESTATUS[0]}
set -e
exit "$status"
