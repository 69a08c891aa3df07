#!/bin/bash
# The end-to-end stage: the suite in e2e/ runs real pods on two containerd runtimes with the
# examples/minikubelet binary, podconfig generating every config, and the bundled example pod
# with crictl alone from `podconfig render -o crictl`'s files.
#
# The runtimes, each started, tested and torn down in turn:
#   1.6  Debian 12's containerd 1.6.20 with its runc 1.1.5 (configuration version 2);
#   2.4  containerd v2.4.2 and its containerd-shim-runc-v2 with runc v1.5.2, built from their Go
#        modules (configuration version 3, the io.containerd.cri.v1.* plugins).
# Debian's containerd, runc and busybox-static come from apt; containerd 2.x, runc and crictl
# (cri-tools v1.37.0) are built with `go install` into $PODCONFIG_CI_CACHE (default
# /var/cache/podconfig-ci/<name>-<version>/), where a later run finds them (a cached binary is
# used only when it reports the pinned version). runc is built because containerd 2.x's user
# namespaces need runc 1.2 or newer (containerd 2.4.2 is tested with runc v1.5.2): with Debian's
# runc 1.1.5 the suite passes on 2.4, but its handlers report no user-namespace support.
#
# Each runtime gets its own temporary directory with its config, root, state, socket, runc root,
# shim sockets (2.x) and CNI directories, and its own cgroup root; the cgroupfs driver, as there is
# no systemd. Nothing is pulled: the images are built locally and imported, and the registry client
# goes through a closed local proxy. The teardown leaves no process, mount, network namespace,
# cgroup or socket behind, also when a test fails, and fails the stage if it finds one.
#
# Development: `.ci/stages/30-e2e.sh CMD...` runs CMD against each runtime instead of the suite
# (PODCONFIG_E2E_ENDPOINT, _ROOT and _CGROUP_ROOT name it); PODCONFIG_E2E_RUNTIMES="2.4" picks
# the runtimes (default "1.6 2.4"). PODCONFIG_E2E_SUITE=0 with a CMD builds only the images,
# not the suite's binaries (the node stage, .ci/stages/50-vknode.sh, runs its own node).
set -euo pipefail
cd "$(dirname "$0")/../.."
stage_start=$(date +%s)
here=.ci/stages/e2e
repo=$(pwd)

CONTAINERD2_VERSION=v2.4.2
RUNC_VERSION=v1.5.2
CRICTL_VERSION=v1.37.0
cache=${PODCONFIG_CI_CACHE:-/var/cache/podconfig-ci}
runtimes=${PODCONFIG_E2E_RUNTIMES:-1.6 2.4}

need=()
command -v containerd >/dev/null || need+=(containerd)
command -v runc >/dev/null || need+=(runc)
# The images' rootfs is the host's busybox: it must be the static build.
dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
command -v ip >/dev/null || need+=(iproute2)
command -v pgrep >/dev/null || need+=(procps)
command -v flock >/dev/null || need+=(util-linux)
# runc's seccomp support links libseccomp through cgo.
dpkg -s libseccomp-dev >/dev/null 2>&1 || need+=(libseccomp-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
containerd --version
runc --version | head -1
echo "installs took $(( $(date +%s) - stage_start )) s"

# tool DIR CHECK -- GO-INSTALL-ARGS...: makes sure $cache/DIR holds the binaries `go install`
# builds from GO-INSTALL-ARGS (go flags, then NAME@VERSION packages), unless CHECK, a shell
# condition run in that directory, already holds (the cached binaries report the pinned
# versions). A build goes to a new directory that replaces the old one only once complete and
# checked, under a lock, so an interrupted or concurrent run never uses half a build. The checks
# use grep without -q: grep -q stops reading at its match, the version command then dies of
# SIGPIPE writing its next line, and pipefail fails the check (a cached tool rebuilt, or a fresh
# build refused, about one time in five).
tool() {
  local dir=$cache/$1 check=$2
  shift 3
  if (cd "$dir" 2>/dev/null && eval "$check") >/dev/null 2>&1; then
    echo "$(basename "$dir"): cached"
    return
  fi
  mkdir -p "$cache"
  (
    flock 9
    if (cd "$dir" 2>/dev/null && eval "$check") >/dev/null 2>&1; then exit 0; fi
    t=$(date +%s)
    tmp=$(mktemp -d "$cache/.build.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    echo "$(basename "$dir"): building"
    GOBIN=$tmp GOFLAGS=-mod=mod go install "$@"
    (cd "$tmp" && eval "$check") >/dev/null 2>&1 || { echo "$(basename "$dir"): the build fails its check: $check"; exit 1; }
    rm -rf "$dir"
    mv "$tmp" "$dir"
    echo "$(basename "$dir"): built in $(( $(date +%s) - t )) s"
  ) 9>"$cache/.lock"
}
tools_start=$(date +%s)
containerd2=$cache/containerd-$CONTAINERD2_VERSION
runc2=$cache/runc-$RUNC_VERSION/runc
crictl=$cache/crictl-$CRICTL_VERSION/crictl
case " $runtimes " in *" 2.4 "*)
  tool "containerd-$CONTAINERD2_VERSION" \
    "./containerd --version | grep -F ' $CONTAINERD2_VERSION' && ./containerd-shim-runc-v2 -v | grep 'Version: *$CONTAINERD2_VERSION\$' && ./ctr --version | grep -F ' $CONTAINERD2_VERSION'" -- \
    -tags no_btrfs -ldflags "-X github.com/containerd/containerd/v2/version.Version=$CONTAINERD2_VERSION" \
    "github.com/containerd/containerd/v2/cmd/containerd@$CONTAINERD2_VERSION" \
    "github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2@$CONTAINERD2_VERSION" \
    "github.com/containerd/containerd/v2/cmd/ctr@$CONTAINERD2_VERSION"
  tool "runc-$RUNC_VERSION" "./runc --version | grep -x 'runc version ${RUNC_VERSION#v}' && ./runc --version | grep '^libseccomp: '" -- \
    -tags seccomp -ldflags "-X main.version=${RUNC_VERSION#v}" "github.com/opencontainers/runc@$RUNC_VERSION"
esac
tool "crictl-$CRICTL_VERSION" "./crictl --version | grep -x 'crictl version $CRICTL_VERSION'" -- \
  -ldflags "-X sigs.k8s.io/cri-tools/pkg/version.Version=$CRICTL_VERSION" "sigs.k8s.io/cri-tools/cmd/crictl@$CRICTL_VERSION"
echo "tools took $(( $(date +%s) - tools_start )) s"

# What the suite runs, built once for both runtimes: the test binaries of the packages holding the
# end-to-end tests, podconfig (for -o crictl), minikubelet, and the images.
bin=$(mktemp -d /tmp/podconfig-e2e-bin.XXXXXX)
build_start=$(date +%s)
if [ $# -gt 0 ] && [ "${PODCONFIG_E2E_SUITE:-1}" = 0 ]; then
  echo "PODCONFIG_E2E_SUITE=0: the suite's binaries are not built"
else
  e2e_pkgs=$(git ls-files '*_test.go' | xargs grep -l '^func TestE2E' | xargs -rn1 dirname | sort -u)
  if [ -z "$e2e_pkgs" ]; then echo "no package holds TestE2E tests"; exit 1; fi
  echo "end-to-end packages: $e2e_pkgs"
  for pkg in $e2e_pkgs; do
    go test -race -c -o "$bin/$(echo "$pkg" | tr / _).test" "./$pkg"
  done
  go build -o "$bin/podconfig" ./cmd/podconfig
  # The suite runs pods with the minikubelet example, race detector on.
  go build -race -o "$bin/minikubelet" ./examples/minikubelet
fi
"$here/images.sh" "$bin/images.tar"
echo "test binaries and images took $(( $(date +%s) - build_start )) s"

# Paths no runtime may leave behind: a run must keep to its own directories.
footprint_paths="/run/containerd /var/lib/containerd /opt/containerd /run/nri /var/run/nri /var/lib/nri /var/run/netns /etc/cni /opt/cni"
footprint() { for p in $footprint_paths; do [ -e "$p" ] && echo "$p"; done; true; }
footprint_before=$(footprint)

# The runtime under test; set while one is up, for the teardown.
work=
sock=
cgroup_root=
containerd_pid=
runc_bin=

# teardown_runtime stops the runtime under test and removes everything it and the suite made;
# it fails when something is left.
teardown_runtime() {
  local rc=0
  [ -n "$work" ] || return 0
  if [ -n "$containerd_pid" ]; then
    kill "$containerd_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$containerd_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$containerd_pid" 2>/dev/null
    wait "$containerd_pid" 2>/dev/null
  fi
  # Containers the suite did not remove (a test that failed or was interrupted half-way): kill
  # them through runc, which knows them under our private root (<root>/<namespace>/<id>), and
  # their shims, which name our socket; then anything still inside our cgroups.
  if [ -d "$work/runc" ]; then
    for state in $(find "$work/runc" -name state.json 2>/dev/null); do
      local id root
      id=$(basename "$(dirname "$state")")
      root=$(dirname "$(dirname "$state")")
      "$runc_bin" --root "$root" kill "$id" KILL 2>/dev/null
      "$runc_bin" --root "$root" delete -f "$id" 2>/dev/null
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
  # Shim sockets: containerd 1.6's shims always put theirs in /run/containerd/s, named by the
  # sha256 of <containerd address>/<namespace>/<id>; 2.x's are in $work/s (its shim manager's
  # socket_dir), removed with $work. The shims remove their own when they exit.
  local task ns id
  for task in "$work"/state/io.containerd.runtime.v2.task/*/*/; do
    [ -d "$task" ] || continue
    id=$(basename "$task"); ns=$(basename "$(dirname "$task")")
    rm -f "/run/containerd/s/$(printf '%s' "$sock/$ns/$id" | sha256sum | cut -d' ' -f1)"
  done
  # Mounts (rootfs, subPath binds, tmpfs volumes, network namespaces) below the work directory,
  # deepest first.
  grep -F " $work" /proc/self/mountinfo | awk '{print $5}' | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null
  done
  for ctl in /sys/fs/cgroup/*/ /sys/fs/cgroup/; do
    [ -d "$ctl$cgroup_root" ] && find "$ctl$cgroup_root" -depth -type d -exec rmdir {} \; 2>/dev/null
  done
  for p in $footprint_paths; do
    # Empty directories a runtime made where none was (/run/containerd/s of 1.6's shims).
    if ! grep -qxF "$p" <<<"$footprint_before" && [ -d "$p" ]; then
      find "$p" -depth -type d -empty -delete 2>/dev/null
    fi
  done
  local left
  left=$(grep -cF " $work" /proc/self/mountinfo)
  if [ "$left" != 0 ]; then echo "e2e teardown: $left mounts left below $work"; rc=1; fi
  if pgrep -f -- "$sock" >/dev/null; then echo "e2e teardown: processes left"; pgrep -af -- "$sock"; rc=1; fi
  if compgen -G "/sys/fs/cgroup/*/$cgroup_root" >/dev/null || [ -d "/sys/fs/cgroup/$cgroup_root" ]; then
    echo "e2e teardown: cgroups left"; rc=1
  fi
  # Only 1.6's shims use /run/containerd/s; under 2.x a socket there is another run's.
  if [ "${version:-}" = 1.6 ] && [ -n "$(find /run/containerd/s -type s 2>/dev/null)" ]; then
    echo "e2e teardown: shim sockets left:"; find /run/containerd/s -type s; rc=1
  fi
  if [ "$(footprint)" != "$footprint_before" ]; then
    echo "e2e teardown: the runtime wrote outside its directories:"; diff <(echo "$footprint_before") <(footprint); rc=1
  fi
  if [ "$rc" != 0 ] && [ -f "$work/containerd.log" ]; then
    echo "--- containerd log (last 40 lines)"; tail -40 "$work/containerd.log"
  fi
  # Never remove a directory something is still mounted below: the removal would go through it.
  if [ "$left" = 0 ]; then rm -rf "$work"; fi
  work=
  containerd_pid=
  return "$rc"
}

on_exit() {
  local rc=$?
  set +e
  teardown_runtime || rc=1
  rm -rf "$bin"
  echo "stage 30-e2e took $(( $(date +%s) - stage_start )) s"
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# start_runtime VERSION: writes the runtime's config and starts it with the images imported.
start_runtime() {
  local version=$1 containerd_bin ctr_bin
  work=$(mktemp -d /tmp/podconfig-e2e.XXXXXX)
  # A pod with hostUsers: false runs as a host id of its own, which must get through to its
  # rootfs below the state directory, as through /run/containerd (both 0711).
  chmod 0711 "$work"
  sock=$work/containerd.sock
  # Pods' cgroups go under a cgroup root of their own (minikubelet's -cgroup-root), so the
  # teardown can remove them without touching anyone else's.
  cgroup_root=podconfig-e2e-$(basename "$work" | cut -d. -f2)
  mkdir -p "$work/cni/bin" "$work/cni/conf" "$work/runc"
  install -m 0755 "$here/cni-plugin.sh" "$work/cni/bin/podconfig-e2e"
  ln -s podconfig-e2e "$work/cni/bin/loopback"
  cat >"$work/cni/conf/10-podconfig-e2e.conflist" <<CONF
{"cniVersion":"0.4.0","name":"podconfig-e2e","plugins":[{"type":"podconfig-e2e","address":"10.88.0.2/24"}]}
CONF
  case $version in
  1.6)
    containerd_bin=$(command -v containerd) ctr_bin=$(command -v ctr) runc_bin=$(command -v runc)
    # containerd 1.6 reads configuration version 2.
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
    ;;
  2.4)
    containerd_bin=$containerd2/containerd ctr_bin=$containerd2/ctr runc_bin=$runc2
    # containerd 2.x reads configuration version 3: the CRI plugin is split into
    # io.containerd.cri.v1.images, io.containerd.cri.v1.runtime and io.containerd.grpc.v1.cri.
    # The shim is ours (runtime_path) and runs our runc (BinaryName); shim sockets go to a
    # directory of our own (the shim manager's socket_dir, at most 42 characters long). NRI
    # would serve a socket in /var/run/nri: it is off.
    cat >"$work/config.toml" <<CONF
version = 3
root = "$work/root"
state = "$work/state"
disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.internal.v1.tracing", "io.containerd.tracing.processor.v1.otlp", "io.containerd.nri.v1.nri"]
[grpc]
  address = "$sock"
[ttrpc]
  address = "$sock.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""
[plugins.'io.containerd.shim.v1.manager']
  socket_dir = "$work/s"
[plugins.'io.containerd.cri.v1.images']
  snapshotter = "overlayfs"
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = "podconfig.local/busybox:pause"
[plugins.'io.containerd.cri.v1.runtime']
  # Root here lacks CAP_SYS_RESOURCE: runc could not lower a container's oom_score_adj below ours.
  restrict_oom_score_adj = true
  enable_selinux = false
  disable_apparmor = true
  netns_mounts_under_state_dir = true
  [plugins.'io.containerd.cri.v1.runtime'.containerd]
    default_runtime_name = "runc"
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      runtime_path = "$containerd2/containerd-shim-runc-v2"
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
        BinaryName = "$runc2"
        SystemdCgroup = false
        Root = "$work/runc/k8s.io"
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ["$work/cni/bin"]
    conf_dir = "$work/cni/conf"
    max_conf_num = 1
[plugins.'io.containerd.grpc.v1.cri']
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
CONF
    ;;
  *) echo "unknown runtime $version (want 1.6 or 2.4)"; exit 2 ;;
  esac
  "$containerd_bin" --version
  # Every image the suite uses is imported below. Should a pull still happen (a test naming
  # another image), containerd's registry client goes through a proxy that is a closed local
  # port, so nothing leaves the machine.
  HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 NO_PROXY= \
    "$containerd_bin" --config "$work/config.toml" >"$work/containerd.log" 2>&1 &
  containerd_pid=$!
  for _ in $(seq 100); do
    "$ctr_bin" --address "$sock" version >/dev/null 2>&1 && break
    kill -0 "$containerd_pid" 2>/dev/null || { echo "containerd exited"; tail -20 "$work/containerd.log"; exit 1; }
    sleep 0.1
  done
  "$ctr_bin" --address "$sock" -n k8s.io images import "$bin/images.tar" >/dev/null
  export PODCONFIG_E2E_ENDPOINT="unix://$sock" PODCONFIG_E2E_ROOT="$work/node" PODCONFIG_E2E_CGROUP_ROOT="$cgroup_root"
  export PODCONFIG_E2E_CRICTL="$crictl" PODCONFIG_E2E_PODCONFIG="$bin/podconfig" PODCONFIG_E2E_MINIKUBELET="$bin/minikubelet" PODCONFIG_E2E_CTR="$ctr_bin"
}

status=0
for version in $runtimes; do
  echo "--- containerd $version"
  t=$(date +%s)
  start_runtime "$version"
  echo "containerd $version ready, images imported in $(( $(date +%s) - t )) s"
  set +e
  if [ $# -gt 0 ]; then
    # Development: run a command against this runtime instead of the suite, e.g.
    #   .ci/stages/30-e2e.sh sh -c 'go run ./examples/minikubelet -endpoint $PODCONFIG_E2E_ENDPOINT ...'
    "$@"
    rc=$?
  else
    rc=0
    for pkg in $e2e_pkgs; do
      (cd "$pkg" && "$bin/$(echo "$pkg" | tr / _).test" -test.count=1 -test.v -test.run E2E -test.timeout 20m) 2>&1 \
        | tee "$work/test.log"
      [ "${PIPESTATUS[0]}" = 0 ] || rc=1
    done
  fi
  teardown_runtime || rc=1
  set -e
  echo "containerd $version: suite and teardown took $(( $(date +%s) - t )) s (status $rc)"
  [ "$rc" = 0 ] || status=1
done
exit "$status"
