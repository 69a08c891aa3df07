// Package manifest reads Kubernetes manifests as users keep them (multi-document YAML or JSON,
// kubectl's List) into the Pods their controllers would create, and the ConfigMaps, Secrets,
// Services and Node those Pods refer to.
//
//	bundle, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "app.yaml", Reader: f})
//	for _, p := range bundle.Pods {
//		// p.Pod is the Pod its controller would create; p.Source names its document.
//		// defaults.SetObjectDefaultsPod(p.Pod) adds what the API server would store.
//	}
//
// Read returns every Pod at once. For a large input, Open reads the same documents but keeps
// each workload, ConfigMap and Secret as the compact JSON it checked: Stream.Pods makes a
// workload's Pods when a loop reaches it, and Stream.GetConfigMap and Stream.GetSecret decode an
// object when it is asked for, so that what is held stays about the input's size:
//
//	stream, err := manifest.Open(manifest.Options{}, manifest.Input{Name: "app.yaml", Reader: f})
//	for p, err := range stream.Pods() {
//		// err names a workload that makes no Pods, or a Pod that repeats another's identity.
//	}
//
// Workloads become Pods the way their controllers make them, as of Kubernetes v1.37:
//
//   - Deployment: a ReplicaSet named <deployment>-<pod-template-hash>, its Pods named
//     <replicaset>-<5 characters> and labelled pod-template-hash;
//   - ReplicaSet, ReplicationController: Pods named <owner>-<5 characters>;
//   - StatefulSet: Pods named <statefulset>-<ordinal> (counting from spec.ordinals.start), with
//     hostname = pod name, subdomain = spec.serviceName, the labels
//     statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index and
//     controller-revision-hash, and a PersistentVolumeClaim volume
//     <template>-<statefulset>-<ordinal> per volumeClaimTemplate;
//   - DaemonSet: one Pod per node, named <daemonset>-<5 characters>, with the labels
//     controller-revision-hash and pod-template-generation, the controller's tolerations and a
//     node affinity for its node;
//   - Job: Pods named <job>-<5 characters>, or <job>-<index>-<5 characters> for Indexed Jobs,
//     labelled batch.kubernetes.io/job-name and batch.kubernetes.io/controller-uid (and the
//     legacy job-name, controller-uid) unless spec.manualSelector is set; an Indexed Job's Pods
//     get the batch.kubernetes.io/job-completion-index annotation and label, hostname
//     <job>-<index> and the JOB_COMPLETION_INDEX environment variable in every container;
//   - CronJob: a Job named <cronjob>-<scheduled time in minutes since the epoch>, then its Pods.
//
// Every Pod carries its controller's ownerReference. Where a cluster chooses at random (the five
// characters the API server appends to a generateName, object UIDs), Read chooses
// deterministically from the namespace, owner and replica, so the same input renders the same
// way every time. Hashes are computed as the controllers compute them, over the pod template; with
// Options.DefaultTemplates the template is first defaulted as the API server stores it, so they
// are a cluster's (without it, they are those of the template as written).
//
// Pods are bound to the node: a Pod with no spec.nodeName gets Options.NodeName, else the Node
// document's name, else "node". Namespaces and UIDs of Pods are left as written; the defaults
// package gives a Pod with none its render identity.
//
// Documents of other kinds (RBAC, ServiceAccount, PodDisruptionBudget, ...) are skipped with a
// warning in Bundle.Warnings. Workloads in beta versions Kubernetes no longer serves
// (extensions/v1beta1, apps/v1beta1, apps/v1beta2, batch/v1beta1, batch/v2alpha1) are read as the
// current version, with a warning, ignoring the fields it dropped. Errors name the input and the document ("app.yaml: document 3
// (Deployment web): ..."). An input larger than MaxInputSize is refused.
//
// Documents are decoded as kubectl and the API server decode them: YAML becomes JSON on its own,
// with kubectl's YAML 1.1 rules, so an unquoted yes or 1 in a string field is an error (as on a
// cluster) rather than "true" or "1"; a duplicate key, an unknown field and a field in the wrong
// case are errors naming the field. A file of JSON objects one after another, with no "---"
// between them, is read one document per object. Two Pods with one UID, or one namespace and
// name, are an error naming both documents (CheckPods).
//
// Read bounds what it builds, not what a parser predicts: each input is parsed once, by one
// YAML parser (go.yaml.in/yaml/v3, JSON included), into a tree that holds each alias once, and
// the documents are built from that tree with a budget of MaxExpansion times the input's size:
// every byte of JSON written and every node visited is paid for, however often aliases, merge
// keys and List items make it visit the same node, and an input that would build more is
// refused with ErrExpansion. A List's items are read from the same tree, so nested Lists cost
// their size, not their depth times their size. Nesting deeper than 10,000 levels, and an alias
// of a node inside itself, are errors.
package manifest
