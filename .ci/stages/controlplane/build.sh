#!/bin/bash
# build.sh: makes sure the control plane and the e2e tooling of Kubernetes v1.37.2 are in
# $PODCONFIG_CI_CACHE (default /var/cache/podconfig-ci), built from the Go module proxy at the
# versions pinned in .ci/tools/etcd and .ci/tools/kubernetes:
#   etcd-v3.7.0/etcd                     the version Kubernetes v1.37 is tested with
#   kubernetes-v1.37.2/kube-apiserver, kube-controller-manager, kube-scheduler, kubectl
#   e2e-v1.37.2/e2e.test                 `go test -c k8s.io/kubernetes/test/e2e`
#   agnhost-2.66.1/agnhost               the binary of the e2e tests' agnhost image
#   busybox-1.37.0/busybox               upstream BusyBox 1.37.0, static, defconfig: what the
#                                        e2e tests' busybox image (Docker's busybox:1.37.0) holds
# A cached directory is used only when its binaries report the pinned versions. Sourced by
# lib.sh; run on its own it builds everything and prints the paths.
set -euo pipefail

CP_ETCD_VERSION=v3.7.0
CP_KUBERNETES_VERSION=v1.37.2
CP_AGNHOST_VERSION=2.66.1
# BusyBox's release tarball, as Debian's archive keeps it (busybox_1.37.0.orig.tar.bz2 is the
# upstream tarball, byte for byte: the checksum is busybox.net's). Debian's own busybox-static
# cannot stand in for it: Debian reverts upstream's ash change that keeps environment variables
# whose names are not shell names (data-1=...), which the ConfigMap and Secret environment tests
# read back with `sh -c env`.
CP_BUSYBOX_VERSION=1.37.0
CP_BUSYBOX_URL=http://deb.debian.org/debian/pool/main/b/busybox/busybox_$CP_BUSYBOX_VERSION.orig.tar.bz2
CP_BUSYBOX_SHA256=3311dff32e746499f4df0d5df04d7eb396382d7e108bb9250e7b519b837043a4
cp_cache=${PODCONFIG_CI_CACHE:-/var/cache/podconfig-ci}
cp_tools=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tools" && pwd)

cp_etcd_dir=$cp_cache/etcd-$CP_ETCD_VERSION
cp_kube_dir=$cp_cache/kubernetes-$CP_KUBERNETES_VERSION
cp_e2e_dir=$cp_cache/e2e-$CP_KUBERNETES_VERSION
cp_agnhost_dir=$cp_cache/agnhost-$CP_AGNHOST_VERSION
cp_busybox_dir=$cp_cache/busybox-$CP_BUSYBOX_VERSION

# cp_tool DIR CHECK MODULE BUILD: makes sure $cp_cache/DIR holds what BUILD, a shell command run
# in .ci/tools/MODULE with $out naming an empty directory, builds there, unless CHECK, a shell
# condition run in $cp_cache/DIR, already holds. As 30-e2e.sh's tool function: the build goes to a
# new directory that replaces the old one only once complete and checked, under the cache's lock,
# and the checks use grep without -q (grep -q stops reading at its match, the version command dies
# of SIGPIPE and pipefail fails the check).
#
# With PODCONFIG_CI_BUILD_DEADLINE (seconds since the epoch; .ci/run sets it) a build that has not
# finished by then is stopped, and it and the builds after it are not made: cp_unbuilt names the
# first. What the Go build cache took in of it stays there, so the next run goes on from it: on a
# machine with empty caches the control plane's hour of compiling is spread over runs that each
# stay within CI's time.
cp_unbuilt=
cp_tool() {
  local dir=$cp_cache/$1 check=$2 module=$3 build=$4 left= stopped
  if (cd "$dir" 2>/dev/null && eval "$check") >/dev/null 2>&1; then
    echo "$(basename "$dir"): cached"
    return
  fi
  [ -z "$cp_unbuilt" ] || return 0
  if [ -n "${PODCONFIG_CI_BUILD_DEADLINE:-}" ]; then
    left=$(( PODCONFIG_CI_BUILD_DEADLINE - $(date +%s) ))
    if [ "$left" -lt 60 ]; then
      echo "$(basename "$dir"): not built, CI's time for building is spent"
      cp_unbuilt=$(basename "$dir")
      return
    fi
  fi
  mkdir -p "$cp_cache"
  stopped=$(mktemp)
  (
    flock 9
    if (cd "$dir" 2>/dev/null && eval "$check") >/dev/null 2>&1; then exit 0; fi
    t=$(date +%s)
    out=$(mktemp -d "$cp_cache/.build.XXXXXX")
    export out
    chmod 0755 "$out"
    trap 'rm -rf "$out"' EXIT
    echo "$(basename "$dir"): building${left:+ (at most $left s)}"
    rc=0
    if [ -n "$left" ]; then
      (cd "$cp_tools/$module" && timeout --kill-after=30 "$left" bash -c "$build") || rc=$?
    else
      (cd "$cp_tools/$module" && bash -c "$build") || rc=$?
    fi
    if [ -n "$left" ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; }; then
      echo "$(basename "$dir"): stopped after $(( $(date +%s) - t )) s, CI's time for building is spent; the Go build cache keeps what it compiled"
      echo stopped >"$stopped"
      exit 0
    fi
    [ "$rc" = 0 ] || { echo "$(basename "$dir"): the build failed ($rc)"; exit 1; }
    (cd "$out" && eval "$check") >/dev/null 2>&1 || { echo "$(basename "$dir"): the build fails its check: $check"; exit 1; }
    rm -rf "$dir"
    mv "$out" "$dir"
    echo "$(basename "$dir"): built in $(( $(date +%s) - t )) s, $(du -sh "$dir" | cut -f1)"
  ) 9>"$cp_cache/.lock"
  if [ -s "$stopped" ]; then cp_unbuilt=$(basename "$dir"); fi
  rm -f "$stopped"
}

# The version variables kube's own build sets (hack/lib/version.sh), so the binaries report
# v1.37.2 as a release does; the build date is fixed. No debug information, as in kube's release
# builds, which shrinks the cache and the link. Every binary of this module is built without cgo,
# as kube's release builds its server binaries and agnhost: agnhost must be static (the busybox
# image has no C library), and with one setting for all, e2e.test and agnhost compile only the
# packages the control plane's binaries did not (a cgo agnhost after a static one, or the other
# way round, compiles every package again: 29 minutes here).
# The build commands run in a shell of their own (bash -c), so what they name is exported.
export CP_ETCD_VERSION CP_KUBERNETES_VERSION CP_AGNHOST_VERSION CP_BUSYBOX_VERSION CP_BUSYBOX_URL CP_BUSYBOX_SHA256
export cp_kube_ldflags="-s -w"
for p in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
  cp_kube_ldflags+=" -X $p.gitVersion=$CP_KUBERNETES_VERSION -X $p.gitMajor=1 -X $p.gitMinor=37"
  cp_kube_ldflags+=" -X $p.gitTreeState=clean -X $p.buildDate=1970-01-01T00:00:00Z"
done

# cp_build builds (or finds cached) every binary above.
cp_build() {
  local t
  t=$(date +%s)
  # BusyBox first: a C build of a minute or two, that the Go build cache does not keep. The
  # check runs it (its version) and makes sure it is static (no program interpreter): the test
  # images have no C library.
  cp_tool "busybox-$CP_BUSYBOX_VERSION" \
    "./busybox --help 2>&1 | grep '^BusyBox v$CP_BUSYBOX_VERSION ' && [ \"\$(readelf -l ./busybox | grep -c INTERP || true)\" = 0 ]" \
    kubernetes \
    'set -euo pipefail
     src=$(mktemp -d)
     trap "rm -rf \"$src\"" EXIT
     curl -fsS --retry 3 -o "$src/busybox.tar.bz2" "$CP_BUSYBOX_URL"
     echo "$CP_BUSYBOX_SHA256  $src/busybox.tar.bz2" | sha256sum -c --quiet
     tar -xjf "$src/busybox.tar.bz2" -C "$src"
     cd "$src/busybox-$CP_BUSYBOX_VERSION"
     make defconfig >/dev/null
     sed -i "s/^# CONFIG_STATIC is not set\$/CONFIG_STATIC=y/" .config
     grep -x CONFIG_STATIC=y .config
     make -j"$(nproc)" busybox >"$src/make.log" 2>&1 || { tail -20 "$src/make.log"; exit 1; }
     cp busybox "$out/busybox"'
  cp_tool "etcd-$CP_ETCD_VERSION" "./etcd --version | grep -x 'etcd Version: ${CP_ETCD_VERSION#v}'" etcd \
    'go build -ldflags "-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3'
  cp_tool "kubernetes-$CP_KUBERNETES_VERSION" \
    "for b in kube-apiserver kube-controller-manager kube-scheduler; do ./\$b --version | grep -x 'Kubernetes $CP_KUBERNETES_VERSION' || exit 1; done; ./kubectl version --client | grep -x 'Client Version: $CP_KUBERNETES_VERSION'" \
    kubernetes \
    'CGO_ENABLED=0 go build -ldflags "$cp_kube_ldflags" -o "$out/" k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl'
  # go test -c would vet the suite's packages first, for minutes: vet is Kubernetes' CI's job.
  cp_tool "e2e-$CP_KUBERNETES_VERSION" "./e2e.test --version | grep -x '$CP_KUBERNETES_VERSION'" kubernetes \
    'CGO_ENABLED=0 go test -c -vet=off -ldflags "$cp_kube_ldflags" -o "$out/e2e.test" k8s.io/kubernetes/test/e2e'
  # agnhost runs in the busybox image, which has no C library: its check makes sure it is static.
  cp_tool "agnhost-$CP_AGNHOST_VERSION" \
    "./agnhost --version | grep -x 'app version $CP_AGNHOST_VERSION' && go version -m ./agnhost | grep -E '^\s+build\s+CGO_ENABLED=0\$'" kubernetes \
    'CGO_ENABLED=0 go build -ldflags "-s -w -X main.Version=$CP_AGNHOST_VERSION" -o "$out/agnhost" k8s.io/kubernetes/test/images/agnhost'
  echo "control plane and e2e tools took $(( $(date +%s) - t )) s"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  export PATH="/usr/local/go/bin:$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin:$PATH"
  cp_build
  echo "$cp_etcd_dir $cp_kube_dir $cp_e2e_dir $cp_agnhost_dir $cp_busybox_dir"
fi
