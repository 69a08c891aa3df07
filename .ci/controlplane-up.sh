#!/bin/bash
# controlplane-up.sh [CMD...]: starts a Kubernetes v1.37.2 control plane on loopback for
# development, as the control-plane stage does (.ci/stages/controlplane/lib.sh): builds it into
# $PODCONFIG_CI_CACHE on first use (about an hour on 2 busy cores, see docs/controlplane.md),
# makes certificates and kubeconfigs in a new /tmp/podconfig-cp.XXXXXX, starts etcd,
# kube-apiserver, kube-controller-manager and kube-scheduler, runs the smoke checks, and writes
#   $PODCONFIG_CP_DIR/env         the variables below, to source from another shell
#   $PODCONFIG_CP_DIR/e2e         e2e.test against this control plane, with the arguments given
#   $PODCONFIG_CP_DIR/images.tar  the test images, to import into the node's containerd
# With CMD, runs it with those variables exported, then tears everything down and exits with its
# status; without, waits until interrupted (Ctrl-C, SIGTERM), then tears down. The teardown
# leaves no process, port or file behind.
#
#   KUBECONFIG                     the admin's kubeconfig (system:masters)
#   PODCONFIG_CP_SERVER            https://127.0.0.1:<port>
#   PODCONFIG_CP_CA, _CA_KEY       the cluster CA, which signs client and kubelet certificates
#   PODCONFIG_CP_NODE_NAME         the node the credentials below are for
#                                  (PODCONFIG_CP_NODE_NAME=... before the start; podconfig-node)
#   PODCONFIG_CP_NODE_KUBECONFIG   the node's kubeconfig (system:node:<name>, system:nodes)
#   PODCONFIG_CP_NODE_CERT, _KEY   the same client certificate as files
#   PODCONFIG_CP_NODE_SERVING_CERT, _KEY  a serving certificate for the node's kubelet API on
#                                  127.0.0.1 and <name>
#   PODCONFIG_CP_KUBECTL, PODCONFIG_CP_E2E_TEST, PODCONFIG_CP_AGNHOST  the cached binaries
#
# Examples:
#   .ci/controlplane-up.sh sh -c '$PODCONFIG_CP_KUBECTL get --raw /readyz'
#   .ci/controlplane-up.sh sh -c '$PODCONFIG_CP_DIR/e2e --ginkgo.focus "\[NodeConformance\]" \
#       --ginkgo.skip "\[Serial\]|\[Slow\]|\[Feature:"'
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin:$PATH"
# shellcheck source=stages/controlplane/lib.sh
. .ci/stages/controlplane/lib.sh

cp_install_deps
cp_build

sleeper=
on_exit() {
  local rc=$?
  set +e
  [ -z "$sleeper" ] || { kill "$sleeper"; wait "$sleeper"; } 2>/dev/null
  cp_teardown || rc=1
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cp_start
cp_smoke
cp_images
cp_write_e2e
echo "export PODCONFIG_CP_IMAGES=$cp_work/images.tar" >>"$cp_work/env"
echo "export PODCONFIG_CP_E2E=$cp_work/e2e" >>"$cp_work/env"
# shellcheck source=/dev/null
. "$cp_work/env"

if [ $# -gt 0 ]; then
  set +e
  "$@"
  rc=$?
  set -e
  exit "$rc"
fi
echo
echo "The control plane is up: source $cp_work/env, e.g."
echo "  . $cp_work/env && \$PODCONFIG_CP_KUBECTL get namespaces"
echo "Logs in $cp_work/logs. Ctrl-C or SIGTERM (pid $$) stops it and removes $cp_work."
# Wait in the background so that signals are handled at once.
sleep infinity &
sleeper=$!
wait "$sleeper" || true
