package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/history"
	"sigs.k8s.io/yaml"

	"github.com/podconfig/podconfig/manifest"
)

// TestManifestControllerHashes checks the hashes package manifest gives the Pods of the command's
// golden Deployments, DaemonSets and StatefulSets against what Kubernetes' own controllers compute
// for the same objects after the API server's defaulting: controller.ComputeHash for
// pod-template-hash and a DaemonSet's controller-revision-hash, and the StatefulSet controller's
// template patch through history.NewControllerRevision for a StatefulSet's.
func TestManifestControllerHashes(t *testing.T) {
	files, err := filepath.Glob("../cmd/podconfig/testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		b, err := manifest.Read(manifest.Options{DefaultTemplates: true}, manifest.Input{Name: file, Reader: bytes.NewReader(data)})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{} // owner kind/name -> the hash label of its first Pod
		for _, p := range b.Pods {
			owner := p.Pod.OwnerReferences
			if len(owner) == 0 {
				continue
			}
			key := owner[0].Kind + "/" + owner[0].Name
			if _, seen := got[key]; !seen {
				got[key] = p.Pod.Labels["pod-template-hash"] + p.Pod.Labels["controller-revision-hash"]
			}
		}
		docs := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for {
			doc, err := docs.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			var head struct{ APIVersion, Kind string }
			if err := yaml.Unmarshal(doc, &head); err != nil || head.APIVersion != "apps/v1" {
				continue
			}
			key, want := "", ""
			switch head.Kind {
			case "Deployment":
				var d appsv1.Deployment
				mustDecodeDefaulted(t, doc, &d)
				want = controller.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
				key = "ReplicaSet/" + d.Name + "-" + want
			case "DaemonSet":
				var ds appsv1.DaemonSet
				mustDecodeDefaulted(t, doc, &ds)
				want = controller.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)
				key = "DaemonSet/" + ds.Name
			case "StatefulSet":
				var set appsv1.StatefulSet
				mustDecodeDefaulted(t, doc, &set)
				want = statefulSetRevisionName(t, &set)
				key = "StatefulSet/" + set.Name
			default:
				continue
			}
			checked++
			if got[key] != want {
				t.Errorf("%s: %s: podconfig's hash %q, Kubernetes' controller %q (podconfig's Pods: %v)", file, key, got[key], want, got)
			}
		}
	}
	if checked < 4 {
		t.Fatalf("only %d workloads checked", checked)
	}
}

func mustDecodeDefaulted(t *testing.T, doc []byte, obj runtime.Object) {
	t.Helper()
	if err := yaml.UnmarshalStrict(doc, obj); err != nil {
		t.Fatal(err)
	}
	legacyscheme.Scheme.Default(obj)
}

// statefulSetRevisionName is the StatefulSet controller's newRevision: its getPatch (the set
// encoded by the apps/v1 codec, reduced to spec.template with $patch: replace) hashed by
// history.NewControllerRevision.
func statefulSetRevisionName(t *testing.T, set *appsv1.StatefulSet) string {
	t.Helper()
	data, err := runtime.Encode(legacyscheme.Codecs.LegacyCodec(appsv1.SchemeGroupVersion), set)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]interface{}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	template := raw["spec"].(map[string]interface{})["template"].(map[string]interface{})
	template["$patch"] = "replace"
	patch, err := json.Marshal(map[string]interface{}{"spec": map[string]interface{}{"template": template}})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := history.NewControllerRevision(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"), set.Spec.Template.Labels,
		runtime.RawExtension{Raw: patch}, 1, set.Status.CollisionCount)
	if err != nil {
		t.Fatal(err)
	}
	return cr.Name
}
