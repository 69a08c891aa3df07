#!/bin/bash
# images.sh OUT.tar: writes an OCI image archive holding three busybox images built from the host's
# static busybox, with no registry and no network:
#   podconfig.local/busybox:1        runs as root, Cmd sh (the suite's containers)
#   podconfig.local/busybox:nonroot  the same with USER 1000
#   podconfig.local/busybox:pause    the sandbox image: its entrypoint sleeps
#   registry.example/web:1.2.3       the image of the bundled example pod
#                                    (examples/render/testdata/pod.yaml): /bin/web prints its
#                                    arguments and environment, then waits for SIGTERM
# Import it with: ctr -n k8s.io images import OUT.tar
set -euo pipefail
out=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rootfs=$work/rootfs
mkdir -p "$rootfs"/{bin,etc,proc,sys,dev,root,home/user,tmp}
chmod 1777 "$rootfs/tmp"
cp /bin/busybox "$rootfs/bin/busybox"
for applet in $(/bin/busybox --list); do
  [ "$applet" = busybox ] || ln -s busybox "$rootfs/bin/$applet"
done
printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$rootfs/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
chown 1000:1000 "$rootfs/home/user"

layout=$work/layout
mkdir -p "$layout/blobs/sha256"
# blob FILE MEDIATYPE: stores FILE as a blob and prints its descriptor.
blob() {
  local digest size
  digest=$(sha256sum "$1" | cut -d' ' -f1)
  size=$(stat -c %s "$1")
  mv "$1" "$layout/blobs/sha256/$digest"
  printf '{"mediaType":"%s","digest":"sha256:%s","size":%s}' "$2" "$digest" "$size"
}

tar --sort=name --numeric-owner --mtime=@0 -C "$rootfs" -cf "$work/layer.tar" .
diff_id=sha256:$(sha256sum "$work/layer.tar" | cut -d' ' -f1)
layer=$(blob "$work/layer.tar" application/vnd.oci.image.layer.v1.tar)
arch=$(dpkg --print-architecture)

web=$work/web
mkdir -p "$web/bin"
cat >"$web/bin/web" <<'SCRIPT'
#!/bin/sh
echo "web $*"
echo "GREETING=$GREETING"
echo "PORT=$PORT LOG_LEVEL=$LOG_LEVEL DB_PASSWORD=$DB_PASSWORD MEMORY_LIMIT_MI=$MEMORY_LIMIT_MI"
echo "user $(id -u):$(id -g) in $(pwd)"
trap 'exit 0' TERM
while :; do sleep 1; done
SCRIPT
chmod 0755 "$web/bin/web"
tar --sort=name --numeric-owner --mtime=@0 -C "$web" -cf "$work/web.tar" .
web_diff_id=sha256:$(sha256sum "$work/web.tar" | cut -d' ' -f1)
web_layer=$(blob "$work/web.tar" application/vnd.oci.image.layer.v1.tar)

manifests=()
# image NAME TAG CONFIG-FIELDS DIFF-IDS LAYERS: writes the config and manifest of one image.
image() {
  printf '{"architecture":"%s","os":"linux","config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],%s},"rootfs":{"type":"layers","diff_ids":[%s]}}' \
    "$arch" "$3" "$4" >"$work/config.json"
  local config manifest
  config=$(blob "$work/config.json" application/vnd.oci.image.config.v1+json)
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":%s,"layers":[%s]}' \
    "$config" "$5" >"$work/manifest.json"
  manifest=$(blob "$work/manifest.json" application/vnd.oci.image.manifest.v1+json)
  manifests+=("${manifest%\}},\"platform\":{\"architecture\":\"$arch\",\"os\":\"linux\"},\"annotations\":{\"io.containerd.image.name\":\"$1:$2\",\"org.opencontainers.image.ref.name\":\"$2\"}}")
}
image podconfig.local/busybox 1 '"Cmd":["sh"]' "\"$diff_id\"" "$layer"
image podconfig.local/busybox nonroot '"Cmd":["sh"],"User":"1000"' "\"$diff_id\"" "$layer"
image podconfig.local/busybox pause '"Entrypoint":["sleep","2147483647"]' "\"$diff_id\"" "$layer"
image registry.example/web 1.2.3 '"Cmd":["/bin/web"]' "\"$diff_id\",\"$web_diff_id\"" "$layer,$web_layer"

printf '{"imageLayoutVersion":"1.0.0"}' >"$layout/oci-layout"
(IFS=,; printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[%s]}' "${manifests[*]}") >"$layout/index.json"
tar --numeric-owner -C "$layout" -cf "$out" .
