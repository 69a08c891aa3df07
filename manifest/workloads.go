package manifest

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/defaults"
)

// The labels, annotations and names controllers add to their Pods (k8s.io/api's constants where
// it has them).
const (
	labelPodTemplateHash      = appsv1.DefaultDeploymentUniqueLabelKey // pod-template-hash
	labelControllerRevision   = appsv1.ControllerRevisionHashLabelKey  // controller-revision-hash
	labelTemplateGeneration   = "pod-template-generation"
	labelStatefulSetPodName   = appsv1.StatefulSetPodNameLabel // statefulset.kubernetes.io/pod-name
	labelPodIndex             = appsv1.PodIndexLabel           // apps.kubernetes.io/pod-index
	labelJobName              = batchv1.JobNameLabel           // batch.kubernetes.io/job-name
	labelControllerUID        = batchv1.ControllerUidLabel     // batch.kubernetes.io/controller-uid
	labelLegacyJobName        = "job-name"
	labelLegacyControllerUID  = "controller-uid"
	annotationCompletionIndex = batchv1.JobCompletionIndexAnnotation // batch.kubernetes.io/job-completion-index
	finalizerJobTracking      = batchv1.JobTrackingFinalizer         // batch.kubernetes.io/job-tracking
	completionIndexEnv        = "JOB_COMPLETION_INDEX"
)

// expansion makes the Pods of workloads, in one pass over them: the Pods named from one
// namespace and generateName are counted, so that two get two names, as the API server's random
// suffixes give them.
type expansion struct {
	opts Options
	// node binds Pods with no spec.nodeName; scheduled names a CronJob's Job.
	node      string
	scheduled time.Time
	generated map[string]int
}

// pods are the Pods of w, bound to the node.
func (e *expansion) pods(w *workload) ([]*v1.Pod, error) {
	obj, err := w.decode()
	if err != nil {
		return nil, err
	}
	if check := e.opts.CheckWorkload; check != nil && w.kind != "Pod" {
		if err := check(obj.(runtime.Object)); err != nil {
			return nil, err
		}
	}
	pods, err := e.podsOf(obj, e.node)
	if err != nil {
		return nil, err
	}
	for _, p := range pods {
		if p.Spec.NodeName == "" {
			p.Spec.NodeName = e.node
		}
	}
	return pods, nil
}

// generatedPodName names a Pod from its generateName: the first with a namespace and
// generateName gets the name seeded by the namespace alone, the ones after it their own.
func (e *expansion) generatedPodName(base, namespace string) string {
	key := namespace + "\x00" + base
	k := e.generated[key]
	if e.generated == nil {
		e.generated = map[string]int{}
	}
	e.generated[key] = k + 1
	if k == 0 {
		return generatedName(base, namespace)
	}
	return generatedName(base, namespace+"/"+strconv.Itoa(k))
}

func (e *expansion) podsOf(obj interface{}, node string) ([]*v1.Pod, error) {
	if e.opts.DefaultTemplates {
		defaultTemplates(obj)
	}
	switch o := obj.(type) {
	case *v1.Pod:
		if e.opts.Ordinal != nil && *e.opts.Ordinal != 0 {
			return nil, fmt.Errorf("ordinal %d: a Pod is a single replica (ordinal 0)", *e.opts.Ordinal)
		}
		pod := o // decoded for this pass alone
		if pod.Name == "" {
			if pod.GenerateName == "" {
				return nil, errors.New("metadata.name or metadata.generateName is required")
			}
			pod.Name = e.generatedPodName(pod.GenerateName, pod.Namespace)
		}
		return []*v1.Pod{pod}, nil
	case *appsv1.ReplicaSet:
		owner := ownerRef("apps/v1", "ReplicaSet", &o.ObjectMeta)
		return e.replicas(o.Spec.Replicas, "spec.replicas", func(i int) (*v1.Pod, error) {
			return replicaPod(&o.Spec.Template, &o.ObjectMeta, owner, i), nil
		})
	case *v1.ReplicationController:
		if o.Spec.Template == nil {
			return nil, errors.New("spec.template is required")
		}
		owner := ownerRef("v1", "ReplicationController", &o.ObjectMeta)
		return e.replicas(o.Spec.Replicas, "spec.replicas", func(i int) (*v1.Pod, error) {
			return replicaPod(o.Spec.Template, &o.ObjectMeta, owner, i), nil
		})
	case *appsv1.Deployment:
		return e.deploymentPods(o)
	case *appsv1.StatefulSet:
		return e.statefulSetPods(o)
	case *appsv1.DaemonSet:
		return e.daemonSetPods(o, node)
	case *batchv1.Job:
		return e.jobPods(o)
	case *batchv1.CronJob:
		return e.jobPods(e.cronJobJob(o))
	}
	return nil, fmt.Errorf("unexpected object %T", obj)
}

// defaultTemplates applies the API server's template defaults to a workload's pod template.
func defaultTemplates(obj interface{}) {
	switch o := obj.(type) {
	case *appsv1.ReplicaSet:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *v1.ReplicationController:
		defaults.SetDefaultsPodTemplateSpec(o.Spec.Template)
	case *appsv1.Deployment:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *appsv1.StatefulSet:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *appsv1.DaemonSet:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *batchv1.Job:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *batchv1.CronJob:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.JobTemplate.Spec.Template)
	}
}

// replicas makes the Pods Options asks for out of a workload of count replicas (nil means 1;
// zero renders the first anyway, so a scaled-down manifest can still be checked).
func (e *expansion) replicas(count *int32, field string, newPod func(i int) (*v1.Pod, error)) ([]*v1.Pod, error) {
	n := 1
	if count != nil {
		n = int(*count)
	}
	if n < 0 {
		return nil, fmt.Errorf("%s: %d is negative", field, n)
	}
	if n == 0 {
		n = 1
	}
	var idx []int
	switch {
	case e.opts.Ordinal != nil:
		if *e.opts.Ordinal < 0 || *e.opts.Ordinal >= n {
			return nil, fmt.Errorf("ordinal %d is outside 0..%d (%s)", *e.opts.Ordinal, n-1, field)
		}
		idx = []int{*e.opts.Ordinal}
	default:
		want := e.opts.Replicas
		if want <= 0 {
			want = 1
		}
		for i := 0; i < want && i < n; i++ {
			idx = append(idx, i)
		}
	}
	pods := make([]*v1.Pod, 0, len(idx))
	for _, i := range idx {
		p, err := newPod(i)
		if err != nil {
			return nil, err
		}
		pods = append(pods, p)
	}
	return pods, nil
}

// ownerRef is the controller reference a controller puts on what it makes
// (metav1.NewControllerRef), with a stable UID when the manifest has none.
func ownerRef(apiVersion, kind string, meta *metav1.ObjectMeta) metav1.OwnerReference {
	uid := meta.UID
	if uid == "" {
		uid = objectUID(kind, meta.Namespace, meta.Name)
	}
	return metav1.OwnerReference{
		APIVersion: apiVersion, Kind: kind, Name: meta.Name, UID: uid,
		Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}
}

// podFromTemplate is controller.GetPodFromTemplate: the template's labels, annotations,
// finalizers and spec, the controller's generateName and reference, in the owner's namespace.
func podFromTemplate(template *v1.PodTemplateSpec, namespace, ownerName string, owner metav1.OwnerReference) *v1.Pod {
	t := template.DeepCopy()
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       namespace,
			GenerateName:    podsPrefix(ownerName),
			Labels:          t.Labels,
			Annotations:     t.Annotations,
			Finalizers:      t.Finalizers,
			OwnerReferences: []metav1.OwnerReference{owner},
		},
		Spec: t.Spec,
	}
}

// replicaPod is replica i of a ReplicaSet or ReplicationController.
func replicaPod(template *v1.PodTemplateSpec, meta *metav1.ObjectMeta, owner metav1.OwnerReference, i int) *v1.Pod {
	pod := podFromTemplate(template, meta.Namespace, meta.Name, owner)
	pod.Name = generatedName(pod.GenerateName, meta.Namespace+"/"+strconv.Itoa(i))
	return pod
}

// deploymentPods are the Pods of the Deployment's new ReplicaSet, <name>-<pod-template-hash>.
func (e *expansion) deploymentPods(d *appsv1.Deployment) ([]*v1.Pod, error) {
	hash := computeHash(&d.Spec.Template, d.Status.CollisionCount)
	rs := metav1.ObjectMeta{Name: d.Name + "-" + hash, Namespace: d.Namespace}
	template := d.Spec.Template.DeepCopy()
	template.Labels = withLabel(template.Labels, labelPodTemplateHash, hash)
	owner := ownerRef("apps/v1", "ReplicaSet", &rs)
	return e.replicas(d.Spec.Replicas, "spec.replicas", func(i int) (*v1.Pod, error) {
		return replicaPod(template, &rs, owner, i), nil
	})
}

// statefulSetPods are the StatefulSet controller's newVersionedStatefulSetPod for each ordinal.
func (e *expansion) statefulSetPods(set *appsv1.StatefulSet) ([]*v1.Pod, error) {
	revision, err := statefulSetRevision(set)
	if err != nil {
		return nil, err
	}
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	owner := ownerRef("apps/v1", "StatefulSet", &set.ObjectMeta)
	if e.opts.Ordinal != nil {
		// The ordinal is the Pod's own number, spec.ordinals.start and up.
		o := *e.opts.Ordinal - start
		one := *e
		one.opts.Ordinal = &o
		e = &one
	}
	pods, err := e.replicas(set.Spec.Replicas, "spec.replicas", func(i int) (*v1.Pod, error) {
		ordinal := start + i
		pod := podFromTemplate(&set.Spec.Template, set.Namespace, set.Name, owner)
		pod.Name = set.Name + "-" + strconv.Itoa(ordinal)
		pod.Labels = withLabel(pod.Labels, labelStatefulSetPodName, pod.Name)
		pod.Labels[labelPodIndex] = strconv.Itoa(ordinal)
		pod.Labels[labelControllerRevision] = revision
		pod.Spec.Hostname = pod.Name
		pod.Spec.Subdomain = set.Spec.ServiceName
		setStatefulSetStorage(set, pod, ordinal)
		return pod, nil
	})
	if err != nil && e.opts.Ordinal != nil {
		return nil, fmt.Errorf("ordinal %d is outside the StatefulSet's ordinals %d..%d", *e.opts.Ordinal+start, start, start+statefulSetReplicas(set)-1)
	}
	return pods, err
}

func statefulSetReplicas(set *appsv1.StatefulSet) int {
	if set.Spec.Replicas == nil || *set.Spec.Replicas == 0 {
		return 1
	}
	return int(*set.Spec.Replicas)
}

// setStatefulSetStorage is the controller's updateStorage: a PersistentVolumeClaim volume
// <template>-<set>-<ordinal> per volumeClaimTemplate, first, replacing a template volume of the
// same name, then the other volumes.
func setStatefulSetStorage(set *appsv1.StatefulSet, pod *v1.Pod, ordinal int) {
	if len(set.Spec.VolumeClaimTemplates) == 0 {
		return
	}
	claims := map[string]bool{}
	volumes := make([]v1.Volume, 0, len(set.Spec.VolumeClaimTemplates)+len(pod.Spec.Volumes))
	for _, c := range set.Spec.VolumeClaimTemplates {
		if claims[c.Name] {
			continue
		}
		claims[c.Name] = true
		volumes = append(volumes, v1.Volume{Name: c.Name, VolumeSource: v1.VolumeSource{
			PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{
				ClaimName: fmt.Sprintf("%s-%s-%d", c.Name, set.Name, ordinal),
			},
		}})
	}
	for _, v := range pod.Spec.Volumes {
		if !claims[v.Name] {
			volumes = append(volumes, v)
		}
	}
	pod.Spec.Volumes = volumes
}

// daemonSetPods is the DaemonSet's Pod for the node: the template with the revision labels
// (CreatePodTemplate), the controller's tolerations and a node affinity for the node.
func (e *expansion) daemonSetPods(ds *appsv1.DaemonSet, node string) ([]*v1.Pod, error) {
	hash := computeHash(&ds.Spec.Template, ds.Status.CollisionCount)
	// The template generation is the deprecated annotation the API server sets to 1 when the
	// DaemonSet is created and raises on each template change (util.GetTemplateGeneration).
	generation := int64(1)
	if v, ok := ds.Annotations[appsv1.DeprecatedTemplateGeneration]; ok {
		g, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("annotation %s: %q is not a number", appsv1.DeprecatedTemplateGeneration, v)
		}
		generation = g
	}
	template := ds.Spec.Template.DeepCopy()
	template.Labels = withLabel(template.Labels, labelTemplateGeneration, strconv.FormatInt(generation, 10))
	template.Labels[labelControllerRevision] = hash
	addDaemonPodTolerations(&template.Spec)
	template.Spec.Affinity = daemonPodNodeAffinity(template.Spec.Affinity, node)
	owner := ownerRef("apps/v1", "DaemonSet", &ds.ObjectMeta)
	return e.replicas(nil, "one Pod per node", func(int) (*v1.Pod, error) {
		pod := podFromTemplate(template, ds.Namespace, ds.Name, owner)
		pod.Name = generatedName(pod.GenerateName, ds.Namespace+"/"+node)
		return pod, nil
	})
}

// addDaemonPodTolerations adds the tolerations every DaemonSet Pod gets
// (AddOrUpdateDaemonPodTolerations), replacing an equal one in place.
func addDaemonPodTolerations(spec *v1.PodSpec) {
	add := func(key string, effect v1.TaintEffect) {
		t := v1.Toleration{Key: key, Operator: v1.TolerationOpExists, Effect: effect}
		for i := range spec.Tolerations {
			if e := spec.Tolerations[i]; e.Key == t.Key && e.Operator == t.Operator && e.Value == t.Value && e.Effect == t.Effect {
				spec.Tolerations[i] = t
				return
			}
		}
		spec.Tolerations = append(spec.Tolerations, t)
	}
	add(v1.TaintNodeNotReady, v1.TaintEffectNoExecute)
	add(v1.TaintNodeUnreachable, v1.TaintEffectNoExecute)
	add(v1.TaintNodeDiskPressure, v1.TaintEffectNoSchedule)
	add(v1.TaintNodeMemoryPressure, v1.TaintEffectNoSchedule)
	add(v1.TaintNodePIDPressure, v1.TaintEffectNoSchedule)
	add(v1.TaintNodeUnschedulable, v1.TaintEffectNoSchedule)
	if spec.HostNetwork {
		add(v1.TaintNodeNetworkUnavailable, v1.TaintEffectNoSchedule)
	}
}

// daemonPodNodeAffinity pins the Pod to the node (ReplaceDaemonSetPodNodeNameNodeAffinity):
// the required node selector terms become one matchFields term on metadata.name.
func daemonPodNodeAffinity(affinity *v1.Affinity, node string) *v1.Affinity {
	terms := []v1.NodeSelectorTerm{{MatchFields: []v1.NodeSelectorRequirement{{
		Key: metav1.ObjectNameField, Operator: v1.NodeSelectorOpIn, Values: []string{node},
	}}}}
	if affinity == nil {
		affinity = &v1.Affinity{}
	}
	if affinity.NodeAffinity == nil {
		affinity.NodeAffinity = &v1.NodeAffinity{}
	}
	if affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &v1.NodeSelector{}
	}
	affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = terms
	return affinity
}

// cronJobJob is the Job the CronJob controller makes for the scheduled time
// (getJobFromTemplate2): named <cronjob>-<minutes since the epoch>, with the job template's
// labels, annotations and spec.
func (e *expansion) cronJobJob(cj *batchv1.CronJob) *batchv1.Job {
	t := e.scheduled
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	tmpl := cj.Spec.JobTemplate.DeepCopy()
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{
			Name:            fmt.Sprintf("%s-%d", cj.Name, t.Unix()/60),
			Namespace:       cj.Namespace,
			Labels:          tmpl.Labels,
			Annotations:     tmpl.Annotations,
			OwnerReferences: []metav1.OwnerReference{ownerRef("batch/v1", "CronJob", &cj.ObjectMeta)},
		},
		Spec: tmpl.Spec,
	}
}

// jobPods are the Job controller's Pods: the selector labels the API server adds to the template
// on create (unless spec.manualSelector), the tracking finalizer, and for an Indexed Job the
// completion index as annotation, label, hostname, name prefix and JOB_COMPLETION_INDEX, and with
// backoffLimitPerIndex a failure count of 0.
func (e *expansion) jobPods(job *batchv1.Job) ([]*v1.Pod, error) {
	uid := job.UID
	if uid == "" {
		uid = objectUID("Job", job.Namespace, job.Name)
	}
	meta := job.ObjectMeta
	meta.UID = uid
	owner := ownerRef("batch/v1", "Job", &meta)
	template := job.Spec.Template.DeepCopy()
	if !ptr.Deref(job.Spec.ManualSelector, false) {
		for k, v := range map[string]string{
			labelControllerUID: string(uid), labelJobName: job.Name,
			labelLegacyControllerUID: string(uid), labelLegacyJobName: job.Name,
		} {
			template.Labels = withLabel(template.Labels, k, v)
		}
	}
	template.Finalizers = appendIfMissing(template.Finalizers, finalizerJobTracking)
	indexed := job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion
	if indexed {
		addCompletionIndexEnv(template)
	}

	parallelism := int32(1)
	if job.Spec.Parallelism != nil {
		parallelism = *job.Spec.Parallelism
	}
	count, field := parallelism, "spec.parallelism"
	if c := job.Spec.Completions; c != nil && (indexed || *c < count) {
		count, field = *c, "spec.completions"
	}
	if indexed && job.Spec.Completions == nil {
		return nil, errors.New("spec.completions is required for an Indexed Job")
	}
	return e.replicas(&count, field, func(i int) (*v1.Pod, error) {
		pod := podFromTemplate(template, job.Namespace, job.Name, owner)
		seed := job.Namespace + "/" + strconv.Itoa(i)
		if indexed {
			index := strconv.Itoa(i)
			pod.Annotations = withLabel(pod.Annotations, annotationCompletionIndex, index)
			if job.Spec.BackoffLimitPerIndex != nil {
				// The index's first pod: no failures counted yet (addIndexFailureCountAnnotation).
				pod.Annotations[batchv1.JobIndexFailureCountAnnotation] = "0"
			}
			pod.Labels = withLabel(pod.Labels, annotationCompletionIndex, index)
			pod.Spec.Hostname = fmt.Sprintf("%s-%d", job.Name, i)
			pod.GenerateName = indexedGenerateName(job.Name, i)
		}
		pod.Name = generatedName(pod.GenerateName, seed)
		return pod, nil
	})
}

// indexedGenerateName is the Job controller's podGenerateNameWithIndex: <job>-<index>-, the
// job's name cut so the index survives the API server's cut to 58 characters.
func indexedGenerateName(job string, index int) string {
	suffix := "-" + strconv.Itoa(index) + "-"
	prefix := job + suffix
	if len(prefix) > maxGeneratedNameLength {
		prefix = prefix[:maxGeneratedNameLength-len(suffix)] + suffix
	}
	return prefix
}

// addCompletionIndexEnv adds JOB_COMPLETION_INDEX, from the completion-index annotation, to every
// init and app container that does not set it (addCompletionIndexEnvVariables). apiVersion v1 is
// what the API server's defaulting writes into the field reference.
func addCompletionIndexEnv(template *v1.PodTemplateSpec) {
	add := func(c *v1.Container) {
		for _, e := range c.Env {
			if e.Name == completionIndexEnv {
				return
			}
		}
		c.Env = append(c.Env, v1.EnvVar{Name: completionIndexEnv, ValueFrom: &v1.EnvVarSource{
			FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: fmt.Sprintf("metadata.annotations['%s']", annotationCompletionIndex)},
		}})
	}
	for i := range template.Spec.InitContainers {
		add(&template.Spec.InitContainers[i])
	}
	for i := range template.Spec.Containers {
		add(&template.Spec.Containers[i])
	}
}

func withLabel(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

func appendIfMissing(list []string, s string) []string {
	for _, e := range list {
		if e == s {
			return list
		}
	}
	return append(list, s)
}
