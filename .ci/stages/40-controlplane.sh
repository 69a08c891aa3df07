#!/bin/bash
# The control-plane stage: a Kubernetes v1.37.2 control plane (etcd 3.7.0, kube-apiserver,
# kube-controller-manager, kube-scheduler) and the e2e tooling (e2e.test, agnhost and the test
# images), built from the Go module proxy into $PODCONFIG_CI_CACHE (default
# /var/cache/podconfig-ci) where later runs find them; the control plane started on loopback,
# smoke-checked (.ci/stages/controlplane/lib.sh's cp_smoke), e2e.test run against it on an
# API-only conformance test, its list of [NodeConformance] tests compared with
# docs/conformance-tests.txt, and everything torn down, leaving no process, port or file, also
# when a check fails. The node that runs the pods (vknode, a virtual-kubelet provider on
# podconfig) and the [NodeConformance] tests against it are the next stage, 50-vknode.sh.
#
# PODCONFIG_CP_UPDATE_DOCS=1 rewrites docs/conformance-tests.txt instead of comparing it.
set -euo pipefail
cd "$(dirname "$0")/../.."
stage_start=$(date +%s)
export PATH="/usr/local/go/bin:$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin:$PATH"
# shellcheck source=controlplane/lib.sh
. .ci/stages/controlplane/lib.sh

cp_install_deps
cp_build
if [ -n "$cp_unbuilt" ]; then
  # Only with PODCONFIG_CI_BUILD_DEADLINE, on a machine whose cache lacks the binaries: the
  # next run builds on from the Go build cache.
  echo "stage 40-controlplane: skipped, $cp_unbuilt is not built yet (CI's time for building was spent; the next run goes on from the Go build cache)"
  exit 0
fi

on_exit() {
  local rc=$?
  set +e
  cp_teardown || rc=1
  echo "stage 40-controlplane took $(( $(date +%s) - stage_start )) s"
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

cp_start
cp_smoke
cp_write_e2e

# The images archive holds agnhost, busybox, nginx (busybox under its name) and pause under the
# names e2e.test asks for.
t=$(date +%s)
cp_images
names=$(tar -xOf "$cp_work/images.tar" ./index.json | jq -r '.manifests[].annotations["io.containerd.image.name"]')
wants=$("$cp_e2e_dir/e2e.test" --list-images | grep -E '/e2e-test-images/(agnhost:2\.66\.1|busybox:|nginx:1\.27\.0-2)|/pause:' | sort -u)
[ "$(grep -c . <<<"$wants")" = 5 ] || { echo "e2e.test --list-images names other images than expected: $wants"; exit 1; }
for want in $wants; do
  grep -qxF "$want" <<<"$names" || { echo "the images archive lacks $want, which e2e.test asks for"; exit 1; }
done
echo "images archive checked against e2e.test --list-images in $(( $(date +%s) - t )) s"

t=$(date +%s)
cp_conformance_list >"$cp_work/conformance-tests.txt"
if [ "${PODCONFIG_CP_UPDATE_DOCS:-}" = 1 ]; then
  cp "$cp_work/conformance-tests.txt" docs/conformance-tests.txt
elif ! diff -u docs/conformance-tests.txt "$cp_work/conformance-tests.txt"; then
  echo "docs/conformance-tests.txt differs from e2e.test's list (PODCONFIG_CP_UPDATE_DOCS=1 rewrites it)"
  exit 1
fi
echo "the [NodeConformance] list matches docs/conformance-tests.txt ($(grep -c '^\[' "$cp_work/conformance-tests.txt") tests) in $(( $(date +%s) - t )) s"

t=$(date +%s)
cp_e2e_api_test
echo "e2e.test ran against the control plane in $(( $(date +%s) - t )) s"
