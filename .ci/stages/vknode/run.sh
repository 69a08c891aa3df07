#!/bin/bash
# run.sh: the node stage's body (.ci/stages/50-vknode.sh), run by .ci/stages/30-e2e.sh against
# the containerd it started (PODCONFIG_E2E_ENDPOINT, _ROOT, _CGROUP_ROOT, _CTR). Starts the control
# plane (lib.sh), imports the test images into containerd's k8s.io namespace, starts vknode
# ($PODCONFIG_VKNODE_BIN) as the node $cp_node_name with the node's credentials, waits for the
# Node to be Ready, runs e2e.test on the [NodeConformance] tests of lib.sh's
# CP_NODE_CONFORMANCE_GROUPS in $PODCONFIG_VKNODE_SHARDS processes at once, prints what passed,
# failed and was skipped per group, and stops the node and the control plane. It fails when a
# test listed in .ci/stages/vknode/passing.txt did not pass; the others are reported only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../controlplane/lib.sh
. "$here/../controlplane/lib.sh"

shards=${PODCONFIG_VKNODE_SHARDS:-4}
node_pid=
node_log=

stop_node() {
  [ -n "$node_pid" ] || return 0
  local t
  t=$(date +%s)
  kill -TERM "$node_pid" 2>/dev/null
  for _ in $(seq 900); do kill -0 "$node_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$node_pid" 2>/dev/null; then
    echo "vknode did not stop in 90 s"; kill -9 "$node_pid"
  fi
  wait "$node_pid" 2>/dev/null
  echo "vknode stopped in $(( $(date +%s) - t )) s"
  node_pid=
}

# The e2e.test processes while they run.
pids=()

on_exit() {
  local rc=$?
  set +e
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  stop_node
  if [ "$rc" != 0 ] && [ -f "$node_log" ]; then echo "--- vknode log (last 60 lines)"; tail -60 "$node_log"; fi
  cp_teardown || rc=1
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

cp_start
cp_write_e2e
t=$(date +%s)
cp_images
"$PODCONFIG_E2E_CTR" --address "${PODCONFIG_E2E_ENDPOINT#unix://}" -n k8s.io images import "$cp_work/images.tar" >/dev/null
echo "test images imported in $(( $(date +%s) - t )) s"

# The node: its root and log directories below the runtime's work directory (removed with it),
# its pods' cgroups below the runtime's cgroup root, its kubelet API on a loopback port the
# kernel picks (the Node's daemonEndpoints publish it).
t=$(date +%s)
node_log=$cp_work/logs/vknode.log
"$PODCONFIG_VKNODE_BIN" -v -kubeconfig "$cp_work/node.kubeconfig" -node-name "$cp_node_name" \
  -endpoint "$PODCONFIG_E2E_ENDPOINT" -root-dir "$PODCONFIG_E2E_ROOT/kubelet" -pod-logs-dir "$PODCONFIG_E2E_ROOT/pods" \
  -cgroup-root "/$PODCONFIG_E2E_CGROUP_ROOT" -node-ip 127.0.0.1 -address 127.0.0.1 -port 0 \
  -tls-cert-file "$cp_work/pki/node-serving.crt" -tls-private-key-file "$cp_work/pki/node-serving.key" \
  -client-ca-file "$cp_work/pki/ca.crt" >"$node_log" 2>&1 &
node_pid=$!
node_ready() {
  cp_api GET "/api/v1/nodes/$cp_node_name" 2>/dev/null | jq -e '.status.conditions[] | select(.type == "Ready") | .status == "True"' >/dev/null 2>&1
}
for (( i=0; ; i++ )); do
  node_ready && break
  kill -0 "$node_pid" 2>/dev/null || { echo "vknode exited before its node was Ready"; exit 1; }
  [ "$i" -lt 120 ] || { echo "the node $cp_node_name was not Ready in 60 s"; exit 1; }
  sleep 0.5
done
echo "vknode registered and Ready in $(( $(date +%s) - t )) s"

# Tests not run: [Serial] ones pull images from registries (the machine has no access); [Flaky]
# and [Disruptive] ones are not node conformance's. [Slow] ones are run apart, below.
skip='\[Serial\]|\[Slow\]|\[Flaky\]|\[Disruptive\]'
# The [Slow] tests of the groups mostly wait (a pod watched for 5 minutes to stay Pending, a
# container's back-offs): each runs in a process of its own beside the shards, so that they
# add minutes of waiting, not of work. Not run: Pods' "should cap back-off at
# MaxContainerBackOff", 27 minutes by design (docs/conformance.md).
slow_not_run='[sig-node] Pods should cap back-off at MaxContainerBackOff [NodeConformance] [Slow]'
if [ -n "${PODCONFIG_VKNODE_FOCUS:-}" ]; then
  focuses=("$PODCONFIG_VKNODE_FOCUS")
else
  # The groups, dealt out to the shards by their counts in docs/conformance-tests.txt, the
  # largest first, each to the shard with the fewest tests so far.
  mapfile -t groups < <(grep -v '^$' <<<"$CP_NODE_CONFORMANCE_GROUPS")
  focuses=()
  load=()
  for (( i=0; i<shards; i++ )); do focuses+=(""); load+=(0); done
  while IFS=$'\t' read -r n g; do
    s=0
    for (( i=1; i<shards; i++ )); do [ "${load[$i]}" -lt "${load[$s]}" ] && s=$i; done
    re=$(printf '%s' "$g" | sed 's/[][().*+?^$|\\]/\\&/g')
    focuses[$s]+="${focuses[$s]:+|}$re"
    load[$s]=$(( load[s] + n ))
  done < <(for g in "${groups[@]}"; do
      n=$(sed -n "/^# The groups the node is to pass first/,/in these groups/p" "$here/../../../docs/conformance-tests.txt" |
        awk -v g="$g" '{ n = $2; $1 = ""; $2 = ""; sub(/^  /, ""); if ($0 == g) print n }')
      printf '%s\t%s\n' "${n:-1}" "$g"
    done | sort -t$'\t' -k1,1nr)
  # Ginkgo matches the focus against the suite's name, then the groups and the test's name.
  for (( s=0; s<shards; s++ )); do focuses[$s]="^Kubernetes e2e suite (${focuses[$s]}) .*\\[NodeConformance\\]"; done
fi

# One process a [Slow] test of the groups (by its exact name, docs/conformance-tests.txt listing
# them), skipping only what is skipped everywhere else.
# PODCONFIG_VKNODE_SKIP replaces the skip of a focus of one's own (to run a [Slow] test by hand).
skips=()
for (( s=0; s<${#focuses[@]}; s++ )); do skips+=("${PODCONFIG_VKNODE_SKIP:-$skip}"); done
if [ -z "${PODCONFIG_VKNODE_FOCUS:-}" ]; then
  while IFS= read -r name; do
    re=$(printf '%s' "$name" | sed 's/[][().*+?^$|\\{}]/\\&/g')
    focuses+=("^Kubernetes e2e suite $re\$")
    skips+=('\[Serial\]|\[Flaky\]|\[Disruptive\]')
  done < <(awk -v groups="$CP_NODE_CONFORMANCE_GROUPS" -v not_run="$slow_not_run" '
      BEGIN { n = split(groups, gs, "\n"); for (i = 1; i <= n; i++) want[gs[i]] = 1 }
      /^## / { group = substr($0, 4); next }
      /^[^ #]/ && (group in want) && index($0, "[Slow]") && $0 != not_run' "$here/../../../docs/conformance-tests.txt")
fi

t=$(date +%s)
pids=()
for (( s=0; s<${#focuses[@]}; s++ )); do
  "$cp_work/e2e" --num-nodes 1 --allowed-not-ready-nodes 0 --disable-log-dump --ginkgo.no-color \
    --ginkgo.timeout 30m --ginkgo.focus "${focuses[$s]}" --ginkgo.skip "${skips[$s]}" \
    --ginkgo.json-report "$cp_work/report-$s.json" >"$cp_work/e2e-$s.log" 2>&1 &
  pids+=("$!")
done
for pid in "${pids[@]}"; do wait "$pid" || true; done
pids=()
echo "e2e.test ran in $(( $(date +%s) - t )) s, in ${#focuses[@]} processes"

# One tab-separated line a [NodeConformance] test: state, group, name. Each report lists every
# test, those of the other shards as skipped: a test's state is the one of the shard that ran it.
results=$(jq -rs '[.[][0].SpecReports[] | select(.LeafNodeType == "It")
    | {state: .State, group: .ContainerHierarchyTexts[0], name: ((.ContainerHierarchyTexts + [.LeafNodeText]) | join(" "))}
    | select(.name | contains("[NodeConformance]"))]
  | group_by(.name)[] | (map(select(.state != "skipped")) + .)[0] | [.state, .group, .name] | @tsv' \
  "$cp_work"/report-*.json | LC_ALL=C sort -t$'\t' -k2,2 -k3,3)
echo "--- [NodeConformance] tests by group: passed, failed, skipped (out of scope)"
cut -f1,2 <<<"$results" | awk -F'\t' '{ g[$2] = 1; if ($1 == "passed") p[$2]++; else if ($1 == "skipped" || $1 == "pending") s[$2]++; else f[$2]++ }
  END { for (k in g) if (p[k] + f[k] > 0) printf "%4d %4d %4d  %s\n", p[k], f[k], s[k], k }' | LC_ALL=C sort -k4
echo "--- failed"
awk -F'\t' '$1 != "passed" && $1 != "skipped" && $1 != "pending" { print $1 ": " $3 }' <<<"$results"
for s in "${!focuses[@]}"; do
  grep -E '^\[FAIL\]|^  \[FAILED\]' "$cp_work/e2e-$s.log" | head -40 || true
done
# PODCONFIG_VKNODE_REPORT_DIR keeps e2e.test's reports and logs and the node's log.
if [ -n "${PODCONFIG_VKNODE_REPORT_DIR:-}" ]; then
  mkdir -p "$PODCONFIG_VKNODE_REPORT_DIR"
  cp "$cp_work"/report-*.json "$cp_work"/e2e-*.log "$node_log" "$PODCONFIG_VKNODE_REPORT_DIR/"
fi

# Every test the docs count as passing must have passed (not checked with a focus of one's own).
rc=0
[ -z "${PODCONFIG_VKNODE_FOCUS:-}" ] || exit 0
while IFS= read -r name; do
  [ -n "$name" ] && [ "${name:0:1}" != "#" ] || continue
  if ! awk -F'\t' -v n="$name" '$1 == "passed" && $3 == n { found = 1 } END { exit !found }' <<<"$results"; then
    echo "FAIL: listed as passing in .ci/stages/vknode/passing.txt, did not pass: $name"; rc=1
  fi
done <"$here/passing.txt"
passed=$(awk -F'\t' '$1 == "passed"' <<<"$results" | wc -l)
echo "$passed tests passed; $(grep -cv '^#' "$here/passing.txt" || true) are required to"
exit "$rc"
