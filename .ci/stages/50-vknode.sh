#!/bin/bash
# The node stage: vknode (a virtual-kubelet provider on podconfig, vknode/) registered as a node
# with the control plane of .ci/stages/controlplane/lib.sh, running its pods on containerd 1.6,
# then on containerd 2.4 (each started and torn down by .ci/stages/30-e2e.sh's runtime functions),
# and Kubernetes v1.37.2's own [NodeConformance] e2e tests run against it each time
# (.ci/stages/vknode/run.sh). Before that, the vknode module's unit tests, with the race detector.
#
# Skipped, exiting 0, when the control plane is not built yet (PODCONFIG_CI_BUILD_DEADLINE, see
# build.sh). Fails when a test docs/conformance.md counts as passing
# (.ci/stages/vknode/passing.txt) fails, or when the teardown leaves a process, mount or file
# behind. Warm, it takes about 15 minutes on 2 cores, 13 of them e2e.test's (the [Slow] tests,
# which mostly wait, run beside the others in processes of their own).
#
# PODCONFIG_VKNODE_FOCUS overrides the tests' focus (a ginkgo regexp) for development, and
# PODCONFIG_VKNODE_SKIP the skip of that focus (default: [Serial], [Slow], [Flaky], [Disruptive]);
# PODCONFIG_VKNODE_SHARDS (default 4) is how many e2e.test processes share the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
stage_start=$(date +%s)
export PATH="/usr/local/go/bin:$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin:$PATH"
# shellcheck source=controlplane/lib.sh
. .ci/stages/controlplane/lib.sh

echo "--- vknode: unit tests"
t=$(date +%s)
(cd vknode && go test -race -count=1 ./...)
echo "vknode unit tests took $(( $(date +%s) - t )) s"

cp_install_deps
cp_build
if [ -n "$cp_unbuilt" ]; then
  echo "stage 50-vknode: skipped, $cp_unbuilt is not built yet (CI's time for building was spent; the next run goes on from the Go build cache)"
  exit 0
fi

bin=$(mktemp -d /tmp/podconfig-vknode-bin.XXXXXX)
trap 'rm -rf "$bin"; echo "stage 50-vknode took $(( $(date +%s) - stage_start )) s"' EXIT
t=$(date +%s)
(cd vknode && go build -o "$bin/vknode" ./cmd/vknode)
echo "vknode built in $(( $(date +%s) - t )) s"

# Each runtime of the end-to-end stage in turn (PODCONFIG_VKNODE_RUNTIMES, default "1.6 2.4":
# Debian's containerd 1.6, then containerd 2.4), its images built but not its suite; run.sh starts
# the control plane and the node against it and tears them down before the runtime's teardown.
PODCONFIG_E2E_RUNTIMES=${PODCONFIG_VKNODE_RUNTIMES:-1.6 2.4} PODCONFIG_E2E_SUITE=0 PODCONFIG_VKNODE_BIN="$bin/vknode" \
  bash .ci/stages/30-e2e.sh bash .ci/stages/vknode/run.sh
