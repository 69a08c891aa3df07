# lib.sh, sourced by the control-plane stage (.ci/stages/40-controlplane.sh) and the developer
# script (.ci/controlplane-up.sh): a Kubernetes v1.37.2 control plane (etcd 3.7.0, kube-apiserver,
# kube-controller-manager, kube-scheduler) started on loopback only, with certificates made at
# start, and stopped by a teardown that leaves no process, listening port, file or directory
# behind.
#
#   cp_build      builds the binaries into the cache, or finds them there (build.sh)
#   cp_start      makes $cp_work (certificates, kubeconfigs, data, logs) and starts the four
#                 processes, each waited for until healthy; writes $cp_work/env
#   cp_smoke      checks through curl what the e2e tests rely on (see its comment)
#   cp_images     writes the test images archive, $cp_work/images.tar (images.sh)
#   cp_write_e2e  writes $cp_work/e2e, e2e.test pointed at this control plane
#   cp_conformance_list  prints docs/conformance-tests.txt from e2e.test's dry run
#   cp_e2e_api_test      runs e2e.test on a few API-only conformance tests
#   cp_teardown   stops everything, removes $cp_work and fails when something is left
#
# The caller sets `trap cp_teardown EXIT` (or calls it from its own trap) before cp_start.
# PODCONFIG_CP_NODE_NAME names the node whose credentials are made (default podconfig-node).

# shellcheck source=build.sh
. "$(dirname "${BASH_SOURCE[0]}")/build.sh"

CP_SERVICE_CIDR=10.96.0.0/12
CP_SERVICE_IP=10.96.0.1
cp_node_name=${PODCONFIG_CP_NODE_NAME:-podconfig-node}

# Set while the control plane is up, for the teardown.
cp_work=
cp_pids=()
cp_ports=()
cp_marker=

# cp_install_deps installs what the scripts use beyond Go: openssl for the certificates, curl and
# jq for the checks, ss and pgrep for the teardown's checks, flock for the cache's lock, make,
# bzip2, a C compiler and readelf for the BusyBox the test images are made of (build.sh).
cp_install_deps() {
  local need=()
  command -v make >/dev/null || need+=(make)
  command -v bzip2 >/dev/null || need+=(bzip2)
  command -v gcc >/dev/null || need+=(gcc libc6-dev)
  command -v readelf >/dev/null || need+=(binutils)
  command -v openssl >/dev/null || need+=(openssl)
  command -v curl >/dev/null || need+=(curl)
  command -v jq >/dev/null || need+=(jq)
  command -v ss >/dev/null || need+=(iproute2)
  command -v pgrep >/dev/null || need+=(procps)
  command -v flock >/dev/null || need+=(util-linux)
  if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]}"
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
}

# Paths a component writes to when a flag is missing (its default cert-dir, data dir or
# kubeconfig): none may appear.
cp_footprint_paths="/var/run/kubernetes /var/lib/etcd /etc/kubernetes /var/lib/kubelet /var/lib/kube-controller-manager $HOME/.kube"
cp_footprint() {
  local p
  for p in $cp_footprint_paths; do [ -e "$p" ] && echo "$p"; done
  # klog's log files, should a component log to files after all.
  find /tmp -maxdepth 1 -newer "$cp_marker" \( -name 'kube-*' -o -name 'etcd*' \) 2>/dev/null
  true
}

# cp_free_port VAR: sets VAR to a loopback TCP port nothing listens on and that this control
# plane has not taken yet. Random ports, so that several engineers' control planes and CI can run
# at once on one machine; below the kernel's ephemeral range (ip_local_port_range), where no
# client connection of the components to one another can already hold the port when it is bound
# (one did: kube-scheduler's "bind: address already in use").
cp_free_port() {
  local p low
  low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range)
  [ "$low" -gt 11024 ] || { echo "ip_local_port_range starts at $low: no room below it for the control plane's ports"; return 1; }
  while :; do
    p=$(( 10000 + RANDOM % (low - 10000) ))
    [[ " ${cp_ports[*]} " == *" $p "* ]] && continue
    [ -z "$(ss -Hltn "sport = :$p")" ] || continue
    cp_ports+=("$p")
    printf -v "$1" %s "$p"
    return
  done
}

# cp_ca DIR NAME CN: a self-signed CA, DIR/NAME.crt and DIR/NAME.key.
cp_ca() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
    -subj "/CN=$3" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
    -keyout "$1/$2.key" -out "$1/$2.crt" 2>/dev/null
}

# cp_cert DIR NAME CA SUBJECT USAGE [SANS]: a P-256 key and a certificate signed by DIR/CA for
# SUBJECT (/CN=.../O=...), for USAGE (serverAuth, clientAuth or both, comma-separated), with
# the subjectAltName SANS.
cp_cert() {
  local dir=$1 name=$2 ca=$3 subject=$4 usage=$5 sans=${6:-}
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "$subject" \
    -keyout "$dir/$name.key" -out "$dir/$name.csr" 2>/dev/null
  {
    echo "basicConstraints=critical,CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=$usage"
    [ -z "$sans" ] || echo "subjectAltName=$sans"
  } >"$dir/$name.ext"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/$ca.crt" -CAkey "$dir/$ca.key" \
    -set_serial "0x$(openssl rand -hex 16)" -days 30 -extfile "$dir/$name.ext" \
    -out "$dir/$name.crt" 2>/dev/null
  rm "$dir/$name.csr" "$dir/$name.ext"
}

# cp_kubeconfig FILE USER CERT-NAME: a kubeconfig for the API server with the client
# certificate pki/CERT-NAME.{crt,key}, all embedded so that the file can be copied elsewhere.
cp_kubeconfig() {
  local pki=$cp_work/pki
  cat >"$1" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: podconfig-ci
  cluster:
    server: $cp_server
    certificate-authority-data: $(base64 -w0 "$pki/ca.crt")
users:
- name: $2
  user:
    client-certificate-data: $(base64 -w0 "$pki/$3.crt")
    client-key-data: $(base64 -w0 "$pki/$3.key")
contexts:
- name: $2@podconfig-ci
  context:
    cluster: podconfig-ci
    user: $2
current-context: $2@podconfig-ci
KUBECONFIG
  chmod 0600 "$1"
}

# cp_pki makes the certificates and keys below $cp_work/pki, as kubeadm lays them out: three CAs
# (the cluster's, etcd's so that no cluster certificate opens etcd, and the front proxy's), the
# serving certificates, the client certificates of every component, the node's, and the service
# account signing key.
cp_pki() {
  local pki=$cp_work/pki
  mkdir -p "$pki"
  cp_ca "$pki" ca kubernetes
  cp_ca "$pki" etcd-ca etcd-ca
  cp_ca "$pki" front-proxy-ca front-proxy-ca
  cp_cert "$pki" etcd-server etcd-ca /CN=etcd serverAuth "IP:127.0.0.1,DNS:localhost"
  cp_cert "$pki" apiserver-etcd-client etcd-ca /CN=kube-apiserver-etcd-client clientAuth
  cp_cert "$pki" apiserver ca /CN=kube-apiserver serverAuth \
    "IP:127.0.0.1,IP:$CP_SERVICE_IP,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
  cp_cert "$pki" apiserver-kubelet-client ca /CN=kube-apiserver-kubelet-client/O=system:masters clientAuth
  cp_cert "$pki" front-proxy-client front-proxy-ca /CN=front-proxy-client clientAuth
  cp_cert "$pki" admin ca /CN=kubernetes-admin/O=system:masters clientAuth
  cp_cert "$pki" controller-manager ca /CN=system:kube-controller-manager clientAuth
  cp_cert "$pki" scheduler ca /CN=system:kube-scheduler clientAuth
  # The node: a client certificate the Node authorizer and NodeRestriction know as the node
  # $cp_node_name, and a serving certificate for its kubelet API on loopback.
  cp_cert "$pki" node ca "/CN=system:node:$cp_node_name/O=system:nodes" clientAuth
  cp_cert "$pki" node-serving ca "/CN=system:node:$cp_node_name/O=system:nodes" serverAuth \
    "IP:127.0.0.1,DNS:localhost,DNS:$cp_node_name"
  openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$pki/sa.key"
  openssl ec -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  chmod 0600 "$pki"/*.key
}

# cp_curl ARGS...: curl against the API server as the admin.
cp_curl() {
  curl -sS --cacert "$cp_work/pki/ca.crt" --cert "$cp_work/pki/admin.crt" --key "$cp_work/pki/admin.key" "$@"
}

# cp_wait WHAT SECONDS CMD...: runs CMD every half second until it succeeds; fails after SECONDS
# or as soon as one of the control plane's processes has exited.
cp_wait() {
  local what=$1 secs=$2 deadline=$(( $(date +%s) + $2 )) pid
  shift 2
  until "$@" >/dev/null 2>&1; do
    for pid in "${cp_pids[@]}"; do
      kill -0 "$pid" 2>/dev/null || { echo "control plane: a process exited while waiting for $what"; cp_logs; return 1; }
    done
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "control plane: $what not ready in $secs s"; cp_logs; return 1
    fi
    sleep 0.5
  done
}

# cp_logs prints the end of each component's log.
cp_logs() {
  local log
  for log in "$cp_work"/logs/*.log; do
    [ -f "$log" ] || continue
    echo "--- $(basename "$log") (last 30 lines)"
    tail -30 "$log"
  done
}

# cp_spawn NAME BINARY ARGS...: starts one component, its output in logs/NAME.log. The
# components get no proxy settings: everything they reach is on loopback.
cp_spawn() {
  local name=$1
  shift
  env -u HTTP_PROXY -u HTTPS_PROXY -u http_proxy -u https_proxy -u NO_PROXY -u no_proxy \
    "$@" >"$cp_work/logs/$name.log" 2>&1 &
  cp_pids+=("$!")
}

# cp_healthz PORT: the /healthz of a component serving with a self-signed certificate (the
# path is always allowed without authentication).
cp_healthz() {
  [ "$(curl -sk "https://127.0.0.1:$1/healthz")" = ok ]
}

# cp_start: makes the work directory and starts etcd, kube-apiserver, kube-controller-manager
# and kube-scheduler in turn, each on loopback ports of its own.
cp_start() {
  local t pki etcd_port peer_port api_port kcm_port sched_port
  t=$(date +%s)
  cp_marker=$(mktemp /tmp/podconfig-cp-marker.XXXXXX)
  cp_footprint_before=$(cp_footprint)
  cp_work=$(mktemp -d /tmp/podconfig-cp.XXXXXX)
  chmod 0700 "$cp_work"
  pki=$cp_work/pki
  mkdir -p "$cp_work/logs" "$cp_work/certs"
  cp_free_port etcd_port
  cp_free_port peer_port
  cp_free_port api_port
  cp_free_port kcm_port
  cp_free_port sched_port
  cp_server=https://127.0.0.1:$api_port
  cp_pki
  cp_kubeconfig "$cp_work/admin.kubeconfig" kubernetes-admin admin
  cp_kubeconfig "$cp_work/controller-manager.kubeconfig" system:kube-controller-manager controller-manager
  cp_kubeconfig "$cp_work/scheduler.kubeconfig" system:kube-scheduler scheduler
  cp_kubeconfig "$cp_work/node.kubeconfig" "system:node:$cp_node_name" node
  echo "control plane: certificates in $(( $(date +%s) - t )) s"

  # etcd: clients need a certificate of etcd's own CA. The peer URL serves no one (a single
  # member) but must be set, on loopback. No fsync: the data is thrown away with the run, and a
  # shared CI disk's fsync latency would slow every write of the tests.
  cp_spawn etcd "$cp_etcd_dir/etcd" --name podconfig-ci --data-dir "$cp_work/etcd" \
    --listen-client-urls "https://127.0.0.1:$etcd_port" --advertise-client-urls "https://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "podconfig-ci=http://127.0.0.1:$peer_port" \
    --cert-file "$pki/etcd-server.crt" --key-file "$pki/etcd-server.key" \
    --client-cert-auth --trusted-ca-file "$pki/etcd-ca.crt" --unsafe-no-fsync --log-level warn
  cp_wait etcd 60 curl -sf --cacert "$pki/etcd-ca.crt" --cert "$pki/apiserver-etcd-client.crt" \
    --key "$pki/apiserver-etcd-client.key" "https://127.0.0.1:$etcd_port/health"
  echo "control plane: etcd ready in $(( $(date +%s) - t )) s"

  # kube-apiserver as kubeadm configures it, on loopback: the Node and RBAC authorizers, the
  # default admission plugins and NodeRestriction, privileged containers allowed, service
  # account tokens signed with sa.key for the issuer below (the token controller and
  # TokenRequest), the front proxy's CA and client for aggregation. The advertised address is
  # loopback, which the kubernetes Endpoints may not hold, hence no endpoint reconciler: the
  # kubernetes Service exists, without endpoints (no pod reaches the API server through it).
  cp_spawn kube-apiserver "$cp_kube_dir/kube-apiserver" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
    --endpoint-reconciler-type none --cert-dir "$cp_work/certs" \
    --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
    --client-ca-file "$pki/ca.crt" \
    --etcd-servers "https://127.0.0.1:$etcd_port" --etcd-cafile "$pki/etcd-ca.crt" \
    --etcd-certfile "$pki/apiserver-etcd-client.crt" --etcd-keyfile "$pki/apiserver-etcd-client.key" \
    --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
    --allow-privileged=true --enable-bootstrap-token-auth=true \
    --service-cluster-ip-range "$CP_SERVICE_CIDR" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
    --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" \
    --kubelet-client-key "$pki/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types InternalIP,ExternalIP,Hostname \
    --proxy-client-cert-file "$pki/front-proxy-client.crt" --proxy-client-key-file "$pki/front-proxy-client.key" \
    --requestheader-client-ca-file "$pki/front-proxy-ca.crt" --requestheader-allowed-names front-proxy-client \
    --requestheader-extra-headers-prefix X-Remote-Extra- --requestheader-group-headers X-Remote-Group \
    --requestheader-username-headers X-Remote-User
  cp_wait kube-apiserver 240 sh -c "[ \"\$(curl -sS --cacert '$pki/ca.crt' --cert '$pki/admin.crt' --key '$pki/admin.key' '$cp_server/readyz')\" = ok ]"
  echo "control plane: kube-apiserver ready in $(( $(date +%s) - t )) s"

  # kube-controller-manager as kubeadm configures it: every default controller (namespace,
  # serviceaccount, serviceaccount-token, garbage collector, replicaset, deployment, job,
  # endpoints, endpointslice, root-ca-cert-publisher, node lifecycle, ...) plus the bootstrap
  # token ones, each with its own service account; CSRs signed by the cluster CA. One instance:
  # no leader election.
  cp_spawn kube-controller-manager "$cp_kube_dir/kube-controller-manager" \
    --bind-address 127.0.0.1 --secure-port "$kcm_port" --cert-dir "$cp_work/certs" \
    --kubeconfig "$cp_work/controller-manager.kubeconfig" \
    --authentication-kubeconfig "$cp_work/controller-manager.kubeconfig" \
    --authorization-kubeconfig "$cp_work/controller-manager.kubeconfig" \
    --client-ca-file "$pki/ca.crt" --requestheader-client-ca-file "$pki/front-proxy-ca.crt" \
    --root-ca-file "$pki/ca.crt" --service-account-private-key-file "$pki/sa.key" \
    --cluster-signing-cert-file "$pki/ca.crt" --cluster-signing-key-file "$pki/ca.key" \
    --controllers '*,bootstrapsigner,tokencleaner' --use-service-account-credentials=true \
    --service-cluster-ip-range "$CP_SERVICE_CIDR" --cluster-name podconfig-ci --leader-elect=false
  cp_spawn kube-scheduler "$cp_kube_dir/kube-scheduler" \
    --bind-address 127.0.0.1 --secure-port "$sched_port" --cert-dir "$cp_work/certs" \
    --kubeconfig "$cp_work/scheduler.kubeconfig" \
    --authentication-kubeconfig "$cp_work/scheduler.kubeconfig" \
    --authorization-kubeconfig "$cp_work/scheduler.kubeconfig" --leader-elect=false
  cp_wait kube-controller-manager 120 cp_healthz "$kcm_port"
  cp_wait kube-scheduler 120 cp_healthz "$sched_port"
  echo "control plane: controller-manager and scheduler ready in $(( $(date +%s) - t )) s"

  cat >"$cp_work/env" <<ENV
# The control plane in $cp_work (Kubernetes $CP_KUBERNETES_VERSION, etcd $CP_ETCD_VERSION).
export KUBECONFIG=$cp_work/admin.kubeconfig
# kubectl's discovery and HTTP caches, which would go to ~/.kube/cache.
export KUBECACHEDIR=$cp_work/kubectl-cache
export PODCONFIG_CP_DIR=$cp_work
export PODCONFIG_CP_SERVER=$cp_server
export PODCONFIG_CP_CA=$pki/ca.crt
export PODCONFIG_CP_CA_KEY=$pki/ca.key
export PODCONFIG_CP_NODE_NAME=$cp_node_name
export PODCONFIG_CP_NODE_KUBECONFIG=$cp_work/node.kubeconfig
export PODCONFIG_CP_NODE_CERT=$pki/node.crt
export PODCONFIG_CP_NODE_KEY=$pki/node.key
export PODCONFIG_CP_NODE_SERVING_CERT=$pki/node-serving.crt
export PODCONFIG_CP_NODE_SERVING_KEY=$pki/node-serving.key
export PODCONFIG_CP_KUBECTL=$cp_kube_dir/kubectl
export PODCONFIG_CP_E2E_TEST=$cp_e2e_dir/e2e.test
export PODCONFIG_CP_AGNHOST=$cp_agnhost_dir/agnhost
ENV
}

# cp_teardown stops the control plane and removes its work directory; it fails when a process,
# a listening port or a file outside the work directory is left.
cp_teardown() {
  local rc=0 pid i port left t
  t=$(date +%s)
  # Runs from EXIT traps, where errexit would stop it half-way (a kill of a process already
  # gone fails): errors are checked one by one, the options restored on return.
  local -
  set +e
  [ -n "$cp_work" ] || return 0
  # The components in reverse order of their start, so that none logs its dependency's end.
  for (( i=${#cp_pids[@]}-1; i>=0; i-- )); do
    pid=${cp_pids[$i]}
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  if pgrep -f -- "$cp_work" >/dev/null; then
    echo "control-plane teardown: processes left:"; pgrep -af -- "$cp_work"; rc=1
  fi
  for port in "${cp_ports[@]}"; do
    left=$(ss -Hltn "sport = :$port")
    if [ -n "$left" ]; then echo "control-plane teardown: port $port still listened on: $left"; rc=1; fi
  done
  if [ "$(cp_footprint)" != "$cp_footprint_before" ]; then
    echo "control-plane teardown: a component wrote outside $cp_work:"
    diff <(echo "$cp_footprint_before") <(cp_footprint); rc=1
  fi
  if [ "$rc" != 0 ]; then cp_logs; fi
  rm -rf "$cp_work" "$cp_marker"
  echo "control plane: teardown took $(( $(date +%s) - t )) s"
  cp_work=
  cp_pids=()
  cp_ports=()
  return "$rc"
}

# cp_api METHOD PATH [JSON]: an admin request to the API server; prints the response body and
# fails on an HTTP status of 400 or more.
cp_api() {
  local args=(-X "$1" "$cp_server$2")
  [ $# -lt 3 ] || args+=(-H 'Content-Type: application/json' --data-binary "$3")
  cp_curl --fail-with-body "${args[@]}"
}

# cp_smoke checks what the e2e framework and the node conformance tests rely on, with the admin's
# and the node's credentials: the API server is ready; a namespace gets its default
# ServiceAccount (serviceaccount controller) and its kube-root-ca.crt ConfigMap holding the
# cluster CA (root-ca-cert-publisher); a TokenRequest for that ServiceAccount returns a token the
# API server accepts as it; a Deployment gets a ReplicaSet and a pod (deployment and replicaset
# controllers), which the scheduler marks unschedulable (no node is there); the node's
# credentials are system:node:<name> in system:nodes and may create that Node, and no other
# (Node authorizer, NodeRestriction); deleting the namespace removes it (namespace controller).
cp_smoke() {
  local t ns token who pki=$cp_work/pki node_curl
  t=$(date +%s)
  [ "$(cp_curl "$cp_server/readyz")" = ok ] || { echo "smoke: /readyz is not ok"; return 1; }
  ns=$(cp_api POST /api/v1/namespaces '{"apiVersion":"v1","kind":"Namespace","metadata":{"generateName":"cp-smoke-"}}' | jq -r .metadata.name)
  echo "smoke: namespace $ns"
  cp_wait "the default ServiceAccount of $ns" 60 cp_api GET "/api/v1/namespaces/$ns/serviceaccounts/default"
  cp_wait "the kube-root-ca.crt ConfigMap of $ns" 60 cp_api GET "/api/v1/namespaces/$ns/configmaps/kube-root-ca.crt"
  cp_api GET "/api/v1/namespaces/$ns/configmaps/kube-root-ca.crt" | jq -j '.data["ca.crt"]' | cmp -s - "$pki/ca.crt" ||
    { echo "smoke: kube-root-ca.crt does not hold the cluster CA"; return 1; }
  token=$(cp_api POST "/api/v1/namespaces/$ns/serviceaccounts/default/token" \
    '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":600}}' | jq -r .status.token)
  who=$(curl -sS --fail-with-body --cacert "$pki/ca.crt" -H "Authorization: Bearer $token" -X POST \
    -H 'Content-Type: application/json' --data-binary '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' \
    "$cp_server/apis/authentication.k8s.io/v1/selfsubjectreviews" | jq -r .status.userInfo.username)
  [ "$who" = "system:serviceaccount:$ns:default" ] || { echo "smoke: the requested token is $who"; return 1; }
  echo "smoke: TokenRequest's token authenticates as $who"

  cp_api POST "/apis/apps/v1/namespaces/$ns/deployments" '{"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"smoke"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"smoke"}},
    "template":{"metadata":{"labels":{"app":"smoke"}},"spec":{"containers":[{"name":"c","image":"registry.k8s.io/pause:3.10.2"}]}}}}' >/dev/null
  cp_wait "the smoke Deployment's pod to be found unschedulable" 90 sh -c "curl -sS --cacert '$pki/ca.crt' --cert '$pki/admin.crt' --key '$pki/admin.key' \
    '$cp_server/api/v1/namespaces/$ns/pods?labelSelector=app%3Dsmoke' |
    jq -e '.items[0].metadata.ownerReferences[0].kind == \"ReplicaSet\" and
      any(.items[0].status.conditions[]?; .type == \"PodScheduled\" and .reason == \"Unschedulable\")'"
  echo "smoke: the Deployment's ReplicaSet made a pod, the scheduler found no node for it"

  node_curl=(curl -sS --cacert "$pki/ca.crt" --cert "$pki/node.crt" --key "$pki/node.key" -H 'Content-Type: application/json')
  who=$("${node_curl[@]}" --fail-with-body -X POST --data-binary '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' \
    "$cp_server/apis/authentication.k8s.io/v1/selfsubjectreviews" | jq -c '[.status.userInfo.username, .status.userInfo.groups]')
  [ "$who" = "[\"system:node:$cp_node_name\",[\"system:nodes\",\"system:authenticated\"]]" ] ||
    { echo "smoke: the node's certificate authenticates as $who"; return 1; }
  "${node_curl[@]}" --fail-with-body -X POST -o /dev/null \
    --data-binary "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"$cp_node_name\"}}" "$cp_server/api/v1/nodes"
  [ "$("${node_curl[@]}" -o /dev/null -w '%{http_code}' -X POST \
    --data-binary '{"apiVersion":"v1","kind":"Node","metadata":{"name":"another-node"}}' "$cp_server/api/v1/nodes")" = 403 ] ||
    { echo "smoke: the node could create another node"; return 1; }
  cp_api DELETE "/api/v1/nodes/$cp_node_name" >/dev/null
  echo "smoke: the node's certificate is system:node:$cp_node_name, may create its Node and no other"

  cp_api DELETE "/api/v1/namespaces/$ns" >/dev/null
  cp_wait "namespace $ns to be deleted" 120 sh -c "[ \"\$(curl -sS -o /dev/null -w '%{http_code}' --cacert '$pki/ca.crt' \
    --cert '$pki/admin.crt' --key '$pki/admin.key' '$cp_server/api/v1/namespaces/$ns')\" = 404 ]"
  echo "smoke: namespace $ns deleted; smoke checks took $(( $(date +%s) - t )) s"
}

# cp_images writes $cp_work/images.tar, the test images (images.sh) for the node to import,
# with the nonewprivs image when the Kubernetes module is in the Go module cache (build.sh put it
# there) to build its nnp from.
cp_images() {
  local nnp_src
  nnp_src=$(go env GOMODCACHE)/k8s.io/kubernetes@$CP_KUBERNETES_VERSION/test/images/nonewprivs/nnp.go
  if [ -f "$nnp_src" ]; then
    CGO_ENABLED=0 GOFLAGS= go build -o "$cp_work/nnp" "$nnp_src"
    "$(dirname "${BASH_SOURCE[0]}")/images.sh" "$cp_work/images.tar" "$cp_busybox_dir/busybox" "$cp_agnhost_dir/agnhost" "$cp_work/nnp"
  else
    "$(dirname "${BASH_SOURCE[0]}")/images.sh" "$cp_work/images.tar" "$cp_busybox_dir/busybox" "$cp_agnhost_dir/agnhost"
  fi
}

# cp_write_e2e writes $cp_work/e2e, which runs e2e.test against this control plane with the
# arguments given to it: the admin kubeconfig, the skeleton provider, the test data written below
# $cp_work/e2e-output, and kubectl from the cache (the [sig-cli] tests run it).
cp_write_e2e() {
  cat >"$cp_work/e2e" <<E2E
#!/bin/sh
# e2e.test of Kubernetes $CP_KUBERNETES_VERSION against the control plane in $cp_work.
mkdir -p "$cp_work/e2e-output"
# kubectl, which some tests run, keeps its caches here rather than in ~/.kube/cache.
export KUBECACHEDIR="$cp_work/kubectl-cache"
exec "$cp_e2e_dir/e2e.test" --kubeconfig "$cp_work/admin.kubeconfig" --provider skeleton \\
  --e2e-output-dir "$cp_work/e2e-output" --kubectl-path "$cp_kube_dir/kubectl" "\$@"
E2E
  chmod 0755 "$cp_work/e2e"
}

# CP_NODE_CONFORMANCE_GROUPS: the top-level groups of [NodeConformance] tests the node is to pass
# first, as the docs list counts them.
CP_NODE_CONFORMANCE_GROUPS='[sig-node] Downward API
[sig-node] Variable Expansion
[sig-node] ConfigMap
[sig-node] Secrets
[sig-node] Containers
[sig-node] Security Context
[sig-node] Container Runtime
[sig-node] InitContainer
[sig-node] Kubelet
[sig-node] KubeletManagedEtcHosts
[sig-node] Sysctls [LinuxOnly]
[sig-node] Pods
[sig-storage] ConfigMap
[sig-storage] Secrets
[sig-storage] Projected configMap
[sig-storage] Projected secret
[sig-storage] Projected downwardAPI
[sig-storage] Downward API volume
[sig-storage] EmptyDir volumes
[sig-storage] HostPath'

# cp_conformance_list prints docs/conformance-tests.txt: the [NodeConformance] tests e2e.test
# selects in a dry run, counted by top-level group (the ginkgo container each test is in), then
# listed by group with the file and line of each.
cp_conformance_list() {
  local report=$cp_work/dry-run.json specs
  "$cp_work/e2e" --ginkgo.dry-run --ginkgo.focus '\[NodeConformance\]' --ginkgo.json-report "$report" \
    >"$cp_work/dry-run.log" 2>&1 || { tail -20 "$cp_work/dry-run.log"; return 1; }
  # One tab-separated line a test: group, file:line, full name; sorted by group, then name.
  specs=$(jq -r '.[0].SpecReports[] | select(.LeafNodeType == "It" and .State != "skipped")
    | [.ContainerHierarchyTexts[0],
       "\(.LeafNodeLocation.FileName | sub(".*/k8s.io/kubernetes@[^/]*/"; "")):\(.LeafNodeLocation.LineNumber)",
       ((.ContainerHierarchyTexts + [.LeafNodeText]) | join(" "))] | @tsv' "$report" | LC_ALL=C sort -t$'\t' -k1,1 -k3,3)
  echo "# The [NodeConformance] tests of Kubernetes $CP_KUBERNETES_VERSION's e2e.test, as"
  echo "#   e2e.test --ginkgo.dry-run --ginkgo.focus '\\[NodeConformance\\]'"
  echo "# selects them. Made by .ci/stages/40-controlplane.sh, which fails when this file differs from"
  echo "# e2e.test's list (PODCONFIG_CP_UPDATE_DOCS=1 .ci/stages/40-controlplane.sh rewrites it)."
  echo "# Run them with: .ci/controlplane-up.sh, then \$PODCONFIG_CP_DIR/e2e --ginkgo.focus '...'."
  echo "#"
  echo "# $(grep -c . <<<"$specs") tests; how many have each of these tags in their names:"
  cut -f3 <<<"$specs" | awk '{
      delete seen; s = $0
      while (match(s, /\[(Conformance|LinuxOnly|Serial|Slow|Disruptive|Flaky|Alpha|Beta|(Node)?Feature(Gate)?:[^]]*|Environment:[^]]*)\]/)) {
        t = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
        if (!(t in seen)) { seen[t] = 1; n[t]++ }
      }
    }
    END { for (t in n) printf "#   %3d  %s\n", n[t], t }' | LC_ALL=C sort -k3
  echo "# $(cut -f3 <<<"$specs" | grep -cvE '\[(Slow|Serial|Flaky|Disruptive)\]' || true) have none of [Slow], [Serial], [Flaky], [Disruptive] (what node" \
    "conformance runs usually skip)."
  echo "#"
  echo "# The groups the node is to pass first, with their counts:"
  local group n where name total=0
  while IFS= read -r group; do
    n=$(cut -f1 <<<"$specs" | grep -cxF "$group" || true)
    printf '#   %3d  %s\n' "$n" "$group"
    total=$(( total + n ))
  done <<<"$CP_NODE_CONFORMANCE_GROUPS"
  printf '#   %3d  in these groups\n' "$total"
  echo "# Every group, with its count:"
  cut -f1 <<<"$specs" | uniq -c | while read -r n group; do printf '#   %3d  %s\n' "$n" "$group"; done
  local last=
  while IFS=$'\t' read -r group where name; do
    if [ "$group" != "$last" ]; then
      printf '\n## %s\n' "$group"
      last=$group
    fi
    printf '%s\n    %s\n' "$name" "$where"
  done <<<"$specs"
}

# The API-only tests cp_e2e_api_test runs: ConfigMap's is [NodeConformance], all are
# [Conformance] tests that create, patch and refuse objects without running a pod.
CP_E2E_API_FOCUS='\[sig-node\] (ConfigMap should (update ConfigMap successfully|fail to create ConfigMap with empty key|run through a ConfigMap lifecycle)|Secrets should (fail to create secret due to empty secret key|patch a secret)) '
CP_E2E_API_COUNT=5

# cp_e2e_api_test runs e2e.test against the control plane on [NodeConformance] tests of the API
# alone (no pod runs): the framework's suite setup (no nodes to wait for: --num-nodes and
# --allowed-not-ready-nodes say so), a test namespace with its ServiceAccount and
# kube-root-ca.crt, the tests, the namespace's deletion.
cp_e2e_api_test() {
  "$cp_work/e2e" --num-nodes 0 --allowed-not-ready-nodes -1 --ginkgo.no-color \
    --ginkgo.focus "$CP_E2E_API_FOCUS" >"$cp_work/e2e-api.log" 2>&1 || {
    tail -60 "$cp_work/e2e-api.log"; echo "e2e.test failed against the control plane"; return 1; }
  grep -E '^(Ran|PASS|FAIL)' "$cp_work/e2e-api.log"
  grep -q "^Ran $CP_E2E_API_COUNT of " "$cp_work/e2e-api.log" ||
    { tail -30 "$cp_work/e2e-api.log"; echo "e2e.test ran other than the $CP_E2E_API_COUNT API tests"; return 1; }
}
