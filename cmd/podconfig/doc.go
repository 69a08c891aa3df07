// Command podconfig prints the CRI configs kubelet v1.37 would give the pods of a manifest,
// offline: no root, no node, no cluster.
//
//	go install github.com/podconfig/podconfig/cmd/podconfig@latest
//	podconfig render app.yaml
//	kubectl get deploy web -o yaml | podconfig render -o table -
//
// podconfig render reads multi-document YAML or JSON (and kubectl's List): Pods, Deployments,
// StatefulSets, DaemonSets, ReplicaSets, ReplicationControllers, Jobs and CronJobs, each made into
// the Pods its controller would create (see package manifest), with the ConfigMaps, Secrets,
// Services and Node they refer to and an optional RenderContext document (pod IPs, the images'
// users, the restart count, a CronJob's scheduled time). Other kinds are skipped with a warning.
// It applies the API server's defaults (--apply-defaults, on by default) and gives a pod with no
// namespace "default" and with no UID a stable one, then prints, per pod, the sandbox config and,
// per container, the CRI config, environment, /etc/hosts file and warnings.
//
// Output is JSON by default (-o json: the CRI messages in protobuf's JSON mapping, with enum
// names and every field shown, defaults included), or -o yaml, or -o table, a summary per
// container and one row per volume file (path, mode, owner, size; never its content). Warnings go to standard error in every format, one warning for many pods in one
// line; -o json and yaml also hold them as data. Run "podconfig render -h" for the flags. Text
// printed for a person (the table, warnings, errors) shows control characters from the manifest
// escaped (\x1b), as kubectl does.
//
// -o crictl --output-directory DIR writes, per pod, DIR/<namespace>_<name>/pod-config.json and
// container-<name>.json, the files "crictl runp" and "crictl create" take (encoding/json of the CRI
// Go types, as crictl decodes them), and a README.md of the commands that run the pod; the host
// files the configs mount (etc-hosts, termination-message files, volume directories) are written
// below DIR/kubelet and the pod's log directory below DIR/pods, so a node's runtime can run the pod
// with crictl alone. The emptyDir, configMap, secret, downwardAPI and projected volumes are set up
// as kubelet's volume manager sets them up (package volumes): each file render computed with its
// mode, in a timestamped directory named by the ..data link, the fsGroup pass, and the owners
// when run as root; on DIR's filesystem, where kubelet mounts a tmpfs. A Secret's values (in the
// volumes and in the containers' environment) and the tokens are written only with
// --show-secrets; otherwise each is the text
// "secret-hidden-by-podconfig\n" repeated and cut to its size, with its mode. hostPath volumes are
// the host's paths; other volumes are empty directories. Everything below DIR is written without
// following a link (a pod run from the files can put links there): a link, FIFO, socket, device
// or hard-linked file where it writes is an error, and DIR itself must not be a link. -o crictl
// runs on Linux only.
//
// Exit status: 0 on success (also for -h), 2 for a usage error, 1 for any other error, reported
// as one line on standard error naming the document and the problem.
package main
