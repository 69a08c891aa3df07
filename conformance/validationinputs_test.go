package conformance

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/conformance/internal/mutate"
	"github.com/podconfig/podconfig/conformance/internal/validationside"
	"github.com/podconfig/podconfig/conformance/scenario"
	"github.com/podconfig/podconfig/manifest"
)

// realworldDir holds the real manifests public projects ship (shared by the project, never
// copied into it), relative to the conformance module.
const realworldDir = "../../shared/realworld"

// Input classes of TestValidation, as the report counts them.
const (
	classKubeletCorpus   = "kubelet corpus pods"
	classAdmissionCorpus = "admission corpus pods"
	classRealPods        = "real manifests' pods"
	classRealWorkloads   = "real manifests' workloads"
	classRandom          = "random pods"
	classMutated         = "mutated pods"
	classRandomWorkloads = "random workloads"
)

// validationInput is one object both validations are given.
type validationInput struct {
	class, name string
	// obj is a v1 Pod or workload, defaulted before it is compared.
	obj runtime.Object
	// changes are the mutations made to a valid object.
	changes []string
}

// corpusValidationInputs are the pods of the kubelet and admission corpora.
func corpusValidationInputs(t *testing.T) []validationInput {
	var in []validationInput
	for _, sc := range loadCorpus(t) {
		in = append(in, validationInput{class: classKubeletCorpus, name: "kubelet corpus " + sc.Name, obj: sc.Pod.DeepCopy()})
	}
	for _, c := range loadAdmissionCorpus(t) {
		in = append(in, validationInput{class: classAdmissionCorpus, name: "admission corpus " + c.Name, obj: c.Pod.DeepCopy()})
	}
	return in
}

// realworldValidationInputs are the Pods package manifest makes of each real manifest (with its
// templates defaulted, as the API server stores a workload) and the workloads themselves, each in
// the namespace "default" when it names none, as kubectl would send it. Inputs that are not
// plain manifests (odd/) are left out. With no realworld directory there are none.
func realworldValidationInputs(t *testing.T) (in []validationInput, files int) {
	paths, err := filepath.Glob(filepath.Join(realworldDir, "*", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	for _, path := range paths {
		if strings.HasPrefix(path, filepath.Join(realworldDir, "odd")+string(filepath.Separator)) {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files++
		name := strings.TrimPrefix(path, realworldDir+"/")
		b, err := manifest.Read(manifest.Options{DefaultTemplates: true, ContinueOnError: true}, manifest.Input{Name: name, Reader: bytes.NewReader(data)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range b.Pods {
			pod := p.Pod
			if pod.Namespace == "" {
				pod.Namespace = metav1.NamespaceDefault
			}
			in = append(in, validationInput{class: classRealPods, name: p.Source + " pod " + pod.Name, obj: pod})
		}
		for i, obj := range decodeWorkloads(t, name, data) {
			in = append(in, validationInput{class: classRealWorkloads, name: fmt.Sprintf("%s: workload %d (%s)", name, i, workloadName(obj)), obj: obj})
		}
	}
	return in, files
}

// decodeWorkloads returns the objects of the kinds validationside validates in a manifest,
// List items included, in the namespace "default" when they name none and with a UID, which the
// API server gives an object before validating it.
func decodeWorkloads(t *testing.T, name string, data []byte) []runtime.Object {
	kinds := map[string]bool{}
	for _, gvk := range validationside.Kinds() {
		kinds[gvk.String()] = true
	}
	dec := legacyscheme.Codecs.UniversalDeserializer()
	var out []runtime.Object
	var add func(obj runtime.Object)
	add = func(obj runtime.Object) {
		if list, ok := obj.(*v1.List); ok {
			for _, item := range list.Items {
				if o, _, err := dec.Decode(item.Raw, nil, nil); err == nil {
					add(o)
				}
			}
			return
		}
		gvks, _, err := legacyscheme.Scheme.ObjectKinds(obj)
		if err != nil || !kinds[gvks[0].String()] || gvks[0].Kind == "Pod" {
			return // Pods come from package manifest, with the names controllers would give
		}
		m, _ := meta.Accessor(obj)
		if m.GetNamespace() == "" {
			m.SetNamespace(metav1.NamespaceDefault)
		}
		if m.GetUID() == "" {
			m.SetUID(types.UID(fmt.Sprintf("%x", sha256.Sum256([]byte(name+"/"+m.GetName())))[:32]))
		}
		out = append(out, obj)
	}
	docs := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if obj, _, err := dec.Decode(doc, nil, nil); err == nil {
			add(obj)
		}
	}
	return out
}

func workloadName(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("%T", obj)
	}
	gvks, _, _ := legacyscheme.Scheme.ObjectKinds(obj)
	kind := fmt.Sprintf("%T", obj)
	if len(gvks) > 0 {
		kind = gvks[0].Kind
	}
	return kind + " " + m.GetName()
}

// randomValidationInputs are n random pods of scenario.Random, as generated: valid for kubelet,
// and most of them for the API server.
func randomValidationInputs(seed uint64, n int) []validationInput {
	in := make([]validationInput, 0, n)
	for i := range n {
		in = append(in, validationInput{class: classRandom, name: fmt.Sprintf("random pod %d (seed %d)", i, seed), obj: scenario.Random(seed, i).Pod})
	}
	return in
}

// validBases draws random pods of scenario.Random, defaulted, that the API server accepts once
// their ephemeral containers are left out (a pod being created may not hold them): the pods
// mutations start from, so that what the API server refuses is what was changed.
type validBases struct {
	t    *testing.T
	seed uint64
	next int
}

// pod returns the next valid pod. It keeps its ephemeral containers when keepEphemeral is set.
func (b *validBases) pod(keepEphemeral bool) *v1.Pod {
	for range 1000 {
		pod := scenario.Random(b.seed, b.next).Pod
		b.next++
		validationside.Default(pod)
		created := pod.DeepCopy()
		created.Spec.EphemeralContainers = nil
		errs, _, err := validationside.Create(created)
		if err != nil {
			b.t.Fatal(err)
		}
		if len(errs) > 0 {
			continue
		}
		if !keepEphemeral {
			return created
		}
		return pod
	}
	b.t.Fatalf("no random pod of seed %d up to index %d is valid", b.seed, b.next)
	return nil
}

// mutatedValidationInputs are n valid random pods with one to three fields changed by package
// mutate, or a combination of fields refused together. Most lose their ephemeral containers
// first, which a pod being created may not hold, so that the change is what is refused.
func mutatedValidationInputs(t *testing.T, seed uint64, n int) []validationInput {
	bases := &validBases{t: t, seed: seed, next: 1_000_000}
	in := make([]validationInput, 0, n)
	for i := range n {
		r := rand.New(rand.NewPCG(seed, uint64(i)+2<<32))
		pod := bases.pod(r.IntN(10) < 2)
		m := mutate.New(r)
		var changes []mutate.Change
		if r.IntN(6) == 0 {
			changes = append(changes, m.PodCombination(pod))
		} else {
			changes = m.Object(pod, []int{1, 1, 1, 2, 3}[r.IntN(5)])
		}
		in = append(in, validationInput{class: classMutated, name: fmt.Sprintf("mutated pod %d (seed %d, base %d)", i, seed, bases.next-1),
			obj: pod, changes: changeStrings(changes)})
	}
	return in
}

// randomWorkloadInputs are n workloads, a kind of each in turn, around the spec of a valid random
// pod: a third as made, a third with one or two of their own fields changed (not the
// template's), a third with one or two fields changed anywhere.
func randomWorkloadInputs(t *testing.T, seed uint64, n int) []validationInput {
	bases := &validBases{t: t, seed: seed, next: 2_000_000}
	in := make([]validationInput, 0, n)
	for i := range n {
		r := rand.New(rand.NewPCG(seed, uint64(i)+3<<32))
		obj := workloadAround(workloadKinds[i%len(workloadKinds)], bases.pod(false))
		validationside.Default(obj)
		m := mutate.New(r)
		var changes []mutate.Change
		switch r.IntN(3) {
		case 1:
			m.Skip = isTemplatePath
			changes = m.Object(obj, 1+r.IntN(2))
		case 2:
			changes = m.Object(obj, 1+r.IntN(2))
		}
		in = append(in, validationInput{class: classRandomWorkloads, name: fmt.Sprintf("random workload %d (seed %d, base %d): %s", i, seed, bases.next-1, workloadName(obj)),
			obj: obj, changes: changeStrings(changes)})
	}
	return in
}

// isTemplatePath reports a workload's pod template.
func isTemplatePath(p *field.Path) bool {
	switch p.String() {
	case "spec.template", "spec.jobTemplate.spec.template", "template":
		return true
	}
	return false
}

var workloadKinds = []string{"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicationController", "PodTemplate"}

// workloadAround returns a workload of kind whose template is pod's labels, annotations and spec,
// selected by the template's labels (a Job's selector is the API server's to generate).
func workloadAround(kind string, pod *v1.Pod) runtime.Object {
	tmpl := v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: pod.Labels, Annotations: pod.Annotations}, Spec: pod.Spec}
	tmpl.Spec.NodeName = ""
	om := metav1.ObjectMeta{Name: "w-" + pod.Name, Namespace: pod.Namespace, UID: pod.UID, Labels: pod.Labels}
	selector := &metav1.LabelSelector{MatchLabels: pod.Labels}
	switch kind {
	case "Deployment":
		return &appsv1.Deployment{ObjectMeta: om, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](2), Selector: selector, Template: tmpl}}
	case "ReplicaSet":
		return &appsv1.ReplicaSet{ObjectMeta: om, Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](2), Selector: selector, Template: tmpl}}
	case "StatefulSet":
		return &appsv1.StatefulSet{ObjectMeta: om, Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](2), Selector: selector, Template: tmpl, ServiceName: "svc"}}
	case "DaemonSet":
		return &appsv1.DaemonSet{ObjectMeta: om, Spec: appsv1.DaemonSetSpec{Selector: selector, Template: tmpl}}
	case "Job":
		tmpl.Spec.RestartPolicy = v1.RestartPolicyOnFailure
		return &batchv1.Job{ObjectMeta: om, Spec: batchv1.JobSpec{Template: tmpl}}
	case "CronJob":
		tmpl.Spec.RestartPolicy = v1.RestartPolicyNever
		return &batchv1.CronJob{ObjectMeta: om, Spec: batchv1.CronJobSpec{Schedule: "*/5 * * * *",
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: tmpl}}}}
	case "ReplicationController":
		return &v1.ReplicationController{ObjectMeta: om, Spec: v1.ReplicationControllerSpec{Replicas: ptr.To[int32](2), Selector: pod.Labels, Template: &tmpl}}
	}
	return &v1.PodTemplate{ObjectMeta: om, Template: tmpl}
}

func changeStrings(changes []mutate.Change) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.String()
	}
	return out
}
