package conformance

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"

	"github.com/podconfig/podconfig/defaults"
)

// realworldManifests holds the real manifests public projects ship (shared by the project, never
// copied into it), relative to the conformance module.
const realworldManifests = "../../shared/realworld"

// workloadCreateStrategies are the API server's create strategies of the kinds package defaults
// defaults as workloads.
var workloadCreateStrategies = map[schema.GroupVersionKind]rest.RESTCreateStrategy{
	v1.SchemeGroupVersion.WithKind("PodTemplate"):           podtemplate.Strategy,
	v1.SchemeGroupVersion.WithKind("ReplicationController"): replicationcontroller.Strategy,
	appsv1.SchemeGroupVersion.WithKind("Deployment"):        deployment.Strategy,
	appsv1.SchemeGroupVersion.WithKind("ReplicaSet"):        replicaset.Strategy,
	appsv1.SchemeGroupVersion.WithKind("StatefulSet"):       statefulset.Strategy,
	appsv1.SchemeGroupVersion.WithKind("DaemonSet"):         daemonset.Strategy,
	batchv1.SchemeGroupVersion.WithKind("Job"):              job.Strategy,
	batchv1.SchemeGroupVersion.WithKind("CronJob"):          cronjob.Strategy,
}

// workloadCase is one workload read from a manifest, with the GroupVersionKind it was sent as.
type workloadCase struct {
	name string
	gvk  schema.GroupVersionKind
	obj  runtime.Object
}

// TestWorkloadDefaults compares defaults.SetObjectDefaultsWorkload with the API server's own
// SetObjectDefaults_<Kind>, then SetObjectDefaultsWorkload and PrepareWorkloadForCreate with the
// API server's path to what it validates and stores (defaulting, conversion to the internal type,
// the kind's real create strategy, conversion back), on every workload of the real manifests and
// of testdata/workloads. A template already defaulted by SetDefaultsPodTemplateSpec, as package
// manifest defaults it, must come out the same.
func TestWorkloadDefaults(t *testing.T) {
	cases := workloadCasesIn(t, "testdata/workloads/*.yaml", "testdata/workloads/")
	n := len(cases)
	cases = append(cases, workloadCasesIn(t, filepath.Join(realworldManifests, "[kp]*", "*.yaml"), realworldManifests+"/")...)
	if len(cases) == n {
		t.Logf("no real manifests in %s: only testdata/workloads is compared", realworldManifests)
	}
	kinds := map[string]int{}
	for _, c := range cases {
		kinds[c.gvk.Kind]++

		want := c.obj.DeepCopyObject()
		legacyscheme.Scheme.Default(want)
		got := c.obj.DeepCopyObject()
		defaults.SetObjectDefaultsWorkload(got)
		if !apiequality.Semantic.DeepEqual(want, got) {
			t.Errorf("%s: defaulted workloads differ (-apiserver +podconfig):\n%s", c.name, cmp.Diff(want, got))
			continue
		}

		withTemplates := c.obj.DeepCopyObject()
		defaultTemplateOf(withTemplates)
		defaults.SetObjectDefaultsWorkload(withTemplates)
		if !apiequality.Semantic.DeepEqual(got, withTemplates) {
			t.Errorf("%s: a template defaulted first differs (-alone +template first):\n%s", c.name, cmp.Diff(got, withTemplates))
		}

		prepared, err := apiserverPrepareWorkload(want, c.gvk)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		defaults.PrepareWorkloadForCreate(got)
		if !apiequality.Semantic.DeepEqual(prepared, got) {
			t.Errorf("%s: workloads prepared for create differ (-apiserver +podconfig):\n%s", c.name, cmp.Diff(prepared, got))
		}
	}
	t.Logf("%d workloads compared: %v", len(cases), kinds)
}

// apiserverPrepareWorkload is what the API server makes of a defaulted workload before validating
// it: the internal object its create strategy prepared, as it returns it in version gvk. obj is
// converted as the API server's decoder converts it, without a copy: maps the defaulting shared (a
// Job's labels and its template's) stay shared, and obj changes with the internal object.
func apiserverPrepareWorkload(obj runtime.Object, gvk schema.GroupVersionKind) (runtime.Object, error) {
	internal, err := legacyscheme.Scheme.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, err
	}
	if err := legacyscheme.Scheme.Convert(obj, internal, nil); err != nil {
		return nil, fmt.Errorf("converting to the internal type: %w", err)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	ctx := genericapirequest.WithNamespace(context.Background(), m.GetNamespace())
	workloadCreateStrategies[gvk].PrepareForCreate(ctx, internal)
	out, err := legacyscheme.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := legacyscheme.Scheme.Convert(internal, out, nil); err != nil {
		return nil, fmt.Errorf("converting back to %s: %w", gvk.Version, err)
	}
	return out, nil
}

// defaultTemplateOf applies defaults.SetDefaultsPodTemplateSpec to a workload's pod template.
func defaultTemplateOf(obj runtime.Object) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *appsv1.ReplicaSet:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *appsv1.StatefulSet:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *appsv1.DaemonSet:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *batchv1.Job:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.Template)
	case *batchv1.CronJob:
		defaults.SetDefaultsPodTemplateSpec(&o.Spec.JobTemplate.Spec.Template)
	case *v1.ReplicationController:
		defaults.SetDefaultsPodTemplateSpec(o.Spec.Template)
	case *v1.PodTemplate:
		defaults.SetDefaultsPodTemplateSpec(&o.Template)
	}
}

// workloadCasesIn reads the workloads of the files pattern matches, List items included, as
// kubectl would send them: in the namespace "default" when they name none, and with the UID the
// API server would have given them (one derived from the file and name, for repeatable runs).
// Documents of other kinds, and ones that do not decode, are left out.
func workloadCasesIn(t *testing.T, pattern, trim string) []workloadCase {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	dec := legacyscheme.Codecs.UniversalDeserializer()
	var out []workloadCase
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(path, trim)
		var add func(obj runtime.Object, gvk *schema.GroupVersionKind)
		add = func(obj runtime.Object, gvk *schema.GroupVersionKind) {
			if list, ok := obj.(*v1.List); ok {
				for _, item := range list.Items {
					if o, g, err := dec.Decode(item.Raw, nil, nil); err == nil {
						add(o, g)
					}
				}
				return
			}
			if _, ok := workloadCreateStrategies[*gvk]; !ok {
				return
			}
			m, err := meta.Accessor(obj)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if m.GetNamespace() == "" {
				m.SetNamespace(metav1.NamespaceDefault)
			}
			if m.GetUID() == "" {
				sum := sha256.Sum256([]byte(name + "/" + gvk.Kind + "/" + m.GetName()))
				m.SetUID(types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])))
			}
			obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{}) // neither side writes it
			out = append(out, workloadCase{name: fmt.Sprintf("%s: %s %s", name, gvk.Kind, m.GetName()), gvk: *gvk, obj: obj})
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
			if obj, gvk, err := dec.Decode(doc, nil, nil); err == nil {
				add(obj, gvk)
			}
		}
	}
	return out
}
