#!/bin/bash
# images.sh OUT.tar BUSYBOX AGNHOST [NNP]: writes an OCI image archive holding the images Kubernetes
# v1.37.2's node conformance tests ask for (test/utils/image/manifest.go), under the names they ask
# for, built from the static BusyBox 1.37.0 binary BUSYBOX and the agnhost binary AGNHOST (both
# built by build.sh), with no registry and no network:
#   registry.k8s.io/e2e-test-images/busybox:1.37.0-2   busybox, Cmd sh (as the image's base,
#                                                      Docker's busybox); also tagged 1.36.1-1,
#                                                      which e2e.test --list-images names too
#   registry.k8s.io/e2e-test-images/agnhost:2.66.1     busybox and /agnhost, Entrypoint /agnhost,
#                                                      Cmd pause; the image's user 1000 and group
#                                                      50000 that tests of image-defined groups read
#   registry.k8s.io/e2e-test-images/agnhost:2.55       the same image, for the tests that switch a
#                                                      container from the previous agnhost to it
#   registry.k8s.io/e2e-test-images/nonroot:1.5        busybox with USER 1234, as the image
#   registry.k8s.io/e2e-test-images/nginx:1.27.0-2     busybox, Cmd sh, under nginx's name: the one
#                                                      test of the node's groups that names it
#                                                      (Pods' back-off reset on an image update)
#                                                      only runs /bin/sh in it; no nginx is here
#   registry.k8s.io/pause:3.10.2                       the sandbox image: /pause, a shell that
#                                                      waits, reaps children and exits on TERM/INT
#   registry.k8s.io/e2e-test-images/nonewprivs:1.4     busybox and /usr/local/bin/nnp setuid root,
#                                                      Cmd nnp; only with NNP, the binary of
#                                                      test/images/nonewprivs (lib.sh's cp_images
#                                                      builds it), which prints its effective uid
# Images of the upstream set that are not here (httpd, kitten, nautilus, a real nginx, ...) fail
# the few tests that use them. Import with: ctr -n k8s.io images import OUT.tar
set -euo pipefail
out=$1
busybox=$2
agnhost=$3
nnp=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

layout=$work/layout
mkdir -p "$layout/blobs/sha256"
arch=$(dpkg --print-architecture)

# blob FILE MEDIATYPE: stores FILE as a blob and prints its descriptor.
blob() {
  local digest size
  digest=$(sha256sum "$1" | cut -d' ' -f1)
  size=$(stat -c %s "$1")
  mv "$1" "$layout/blobs/sha256/$digest"
  printf '{"mediaType":"%s","digest":"sha256:%s","size":%s}' "$2" "$digest" "$size"
}

# layer DIR VAR: tars DIR reproducibly into a layer blob; sets VAR_desc to its descriptor and
# VAR_diff to its diff ID.
layer() {
  tar --sort=name --numeric-owner --mtime=@0 -C "$1" -cf "$work/layer.tar" .
  printf -v "${2}_diff" '"sha256:%s"' "$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
  printf -v "${2}_desc" %s "$(blob "$work/layer.tar" application/vnd.oci.image.layer.v1.tar)"
}

# The busybox layer: busybox, its applets, and the users and groups of Docker's busybox image.
rootfs=$work/busybox
mkdir -p "$rootfs"/{bin,etc,proc,sys,dev,root,home,tmp,var/www,var/spool/mail}
chmod 1777 "$rootfs/tmp"
cp "$busybox" "$rootfs/bin/busybox"
for applet in $("$busybox" --list); do
  [ "$applet" = busybox ] || ln -s busybox "$rootfs/bin/$applet"
done
cat >"$rootfs/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/bin/false
bin:x:2:2:bin:/bin:/bin/false
sys:x:3:3:sys:/dev:/bin/false
sync:x:4:100:sync:/bin:/bin/sync
mail:x:8:8:mail:/var/spool/mail:/bin/false
www-data:x:33:33:www-data:/var/www:/bin/false
operator:x:37:37:Operator:/var:/bin/false
nobody:x:65534:65534:nobody:/home:/bin/false
PASSWD
cat >"$rootfs/etc/group" <<'GROUP'
root:x:0:
daemon:x:1:
bin:x:2:
sys:x:3:
adm:x:4:
tty:x:5:
disk:x:6:
wheel:x:10:root
mail:x:12:
www-data:x:33:
users:x:100:
nogroup:x:65534:
GROUP
layer "$rootfs" busybox

# The agnhost layer: the binary, its agnhost-2 link, the porter's /uploads, and the user and
# group the agnhost image defines (users and groups appended to busybox's).
ag=$work/agnhost
mkdir -p "$ag/etc" "$ag/uploads" "$ag/home/user-defined-in-image"
cp "$agnhost" "$ag/agnhost"
ln -s agnhost "$ag/agnhost-2"
{ cat "$rootfs/etc/passwd"; echo 'user-defined-in-image:x:1000:1000::/home/user-defined-in-image:/bin/sh'; } >"$ag/etc/passwd"
{ cat "$rootfs/etc/group"; echo 'user-defined-in-image:x:1000:'; echo 'group-defined-in-image:x:50000:user-defined-in-image'; } >"$ag/etc/group"
chown 1000:1000 "$ag/home/user-defined-in-image"
layer "$ag" agnhost

# The pause layer.
pause=$work/pause
mkdir -p "$pause"
cat >"$pause/pause" <<'PAUSE'
#!/bin/sh
# The sandbox's process: waits until TERM or INT, reaping whatever is reparented to it.
trap 'exit 0' TERM INT
while :; do
  sleep 2147483647 &
  wait
done
PAUSE
chmod 0755 "$pause/pause"
layer "$pause" pause

# The nonewprivs layer: nnp, setuid root, which the AllowPrivilegeEscalation tests run as
# another user to see whether it gains root.
if [ -n "$nnp" ]; then
  nnpdir=$work/nonewprivs
  mkdir -p "$nnpdir/usr/local/bin"
  install -o 0 -g 0 -m 4755 "$nnp" "$nnpdir/usr/local/bin/nnp"
  layer "$nnpdir" nonewprivs
fi

manifests=()
# image NAME:TAG CONFIG-FIELDS DIFF-IDS LAYERS: writes the config and manifest of one image.
image() {
  local name=${1%:*} tag=${1##*:} config manifest
  printf '{"architecture":"%s","os":"linux","config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],%s},"rootfs":{"type":"layers","diff_ids":[%s]}}' \
    "$arch" "$2" "$3" >"$work/config.json"
  config=$(blob "$work/config.json" application/vnd.oci.image.config.v1+json)
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":%s,"layers":[%s]}' \
    "$config" "$4" >"$work/manifest.json"
  manifest=$(blob "$work/manifest.json" application/vnd.oci.image.manifest.v1+json)
  manifests+=("${manifest%\}},\"platform\":{\"architecture\":\"$arch\",\"os\":\"linux\"},\"annotations\":{\"io.containerd.image.name\":\"$name:$tag\",\"org.opencontainers.image.ref.name\":\"$tag\"}}")
}
e2e=registry.k8s.io/e2e-test-images
for tag in 1.37.0-2 1.36.1-1; do
  image "$e2e/busybox:$tag" '"Cmd":["sh"]' "$busybox_diff" "$busybox_desc"
done
for tag in 2.66.1 2.55; do
  image "$e2e/agnhost:$tag" '"Entrypoint":["/agnhost"],"Cmd":["pause"]' "$busybox_diff,$agnhost_diff" "$busybox_desc,$agnhost_desc"
done
image "$e2e/nonroot:1.5" '"User":"1234"' "$busybox_diff" "$busybox_desc"
image "$e2e/nginx:1.27.0-2" '"Cmd":["sh"]' "$busybox_diff" "$busybox_desc"
if [ -n "$nnp" ]; then
  image "$e2e/nonewprivs:1.4" '"Cmd":["nnp"]' "$busybox_diff,$nonewprivs_diff" "$busybox_desc,$nonewprivs_desc"
fi
image registry.k8s.io/pause:3.10.2 '"Entrypoint":["/pause"],"User":"65535:65535"' "$busybox_diff,$pause_diff" "$busybox_desc,$pause_desc"

printf '{"imageLayoutVersion":"1.0.0"}' >"$layout/oci-layout"
(IFS=,; printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[%s]}' "${manifests[*]}") >"$layout/index.json"
tar --numeric-owner -C "$layout" -cf "$out" .
