package manifest_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/manifest"
)

func read(t *testing.T, opts manifest.Options, doc string) *manifest.Bundle {
	t.Helper()
	b, err := manifest.Read(opts, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.NoError(t, err)
	return b
}

const container = `{containers: [{name: app, image: app:1}]}`

func TestWorkloadPods(t *testing.T) {
	tests := []struct {
		name        string
		doc         string
		opts        manifest.Options
		wantNames   []string
		wantLabels  map[string]string
		wantOwner   string
		wantHost    string
		wantSubdom  string
		wantVolumes []string
		check       func(t *testing.T, pod *v1.Pod)
	}{
		{
			name:      "a Pod is read as written and bound to the node",
			doc:       "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: b}}\nspec: " + container,
			wantNames: []string{"p"}, wantLabels: map[string]string{"a": "b"},
		},
		{
			name:      "a Pod with generateName gets the API server's five characters",
			doc:       "apiVersion: v1\nkind: Pod\nmetadata: {generateName: p-}\nspec: " + container,
			wantNames: []string{"p-r8jgx"},
		},
		{
			name: "a Deployment's Pods belong to ReplicaSet <name>-<pod-template-hash> and carry the hash",
			doc: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n" +
				"  template:\n    metadata: {labels: {app: web}}\n    spec: " + container,
			opts:       manifest.Options{Replicas: 2},
			wantNames:  []string{"web-585bd9c4d7-pkllv", "web-585bd9c4d7-6f79p"},
			wantLabels: map[string]string{"app": "web", "pod-template-hash": "585bd9c4d7"},
			wantOwner:  "apps/v1 ReplicaSet web-585bd9c4d7",
		},
		{
			name:      "a ReplicaSet's Pods are <name>-<5 characters>",
			doc:       "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec:\n  template:\n    spec: " + container,
			wantNames: []string{"rs-rhdrm"}, wantOwner: "apps/v1 ReplicaSet rs",
		},
		{
			name:      "a ReplicationController's Pods are <name>-<5 characters>",
			doc:       "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc}\nspec:\n  replicas: 2\n  template:\n    spec: " + container,
			opts:      manifest.Options{Ordinal: ptr.To(1)},
			wantNames: []string{"rc-89mwj"}, wantOwner: "v1 ReplicationController rc",
		},
		{
			name: "a StatefulSet's Pod is <name>-<ordinal> with hostname, subdomain, identity labels and claims",
			doc: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: dbs\n  replicas: 3\n  ordinals: {start: 5}\n" +
				"  template:\n    metadata: {labels: {app: db}}\n    spec:\n      volumes: [{name: data, emptyDir: {}}, {name: tmp, emptyDir: {}}]\n      containers: [{name: db, image: db:1}]\n" +
				"  volumeClaimTemplates: [{metadata: {name: data}}]",
			opts:      manifest.Options{Ordinal: ptr.To(6)},
			wantNames: []string{"db-6"},
			wantLabels: map[string]string{
				"app": "db", "statefulset.kubernetes.io/pod-name": "db-6", "apps.kubernetes.io/pod-index": "6",
				"controller-revision-hash": "db-6558f9f66b",
			},
			wantOwner: "apps/v1 StatefulSet db", wantHost: "db-6", wantSubdom: "dbs",
			wantVolumes: []string{"data=pvc:data-db-6", "tmp"},
		},
		{
			name: "a DaemonSet's Pod has the revision labels, the controller's tolerations and the node's affinity",
			doc: "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  template:\n    metadata: {labels: {app: agent}}\n    spec: " + container +
				"\n---\napiVersion: v1\nkind: Node\nmetadata: {name: worker-1}",
			wantNames:  []string{"agent-jc5sb"},
			wantLabels: map[string]string{"app": "agent", "pod-template-generation": "1", "controller-revision-hash": "586895479b"},
			wantOwner:  "apps/v1 DaemonSet agent",
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, "worker-1", pod.Spec.NodeName)
				assert.Len(t, pod.Spec.Tolerations, 6, "no network-unavailable toleration without hostNetwork")
				assert.Equal(t, []string{"worker-1"}, pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values)
			},
		},
		{
			name: "a DaemonSet saved from a cluster keeps its template generation",
			doc: "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds, generation: 9, annotations: {deprecated.daemonset.template.generation: '4'}}\n" +
				"spec:\n  template:\n    metadata: {labels: {app: ds}}\n    spec: " + container,
			wantNames: []string{"ds-fmkld"}, wantOwner: "apps/v1 DaemonSet ds",
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, "4", pod.Labels["pod-template-generation"])
			},
		},
		{
			name: "an Indexed Job's Pod has the completion index as annotation, label, hostname, name and env",
			doc: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: pi, uid: 11111111-2222-3333-4444-555555555555}\nspec:\n  completionMode: Indexed\n  completions: 4\n" +
				"  template:\n    spec:\n      restartPolicy: Never\n      initContainers: [{name: init, image: i}]\n      containers: [{name: pi, image: perl}]",
			opts:      manifest.Options{Ordinal: ptr.To(3)},
			wantNames: []string{"pi-3-tccg7"},
			wantLabels: map[string]string{
				"batch.kubernetes.io/job-name": "pi", "job-name": "pi", "batch.kubernetes.io/job-completion-index": "3",
				"batch.kubernetes.io/controller-uid": "11111111-2222-3333-4444-555555555555", "controller-uid": "11111111-2222-3333-4444-555555555555",
			},
			wantOwner: "batch/v1 Job pi", wantHost: "pi-3",
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, "3", pod.Annotations["batch.kubernetes.io/job-completion-index"])
				assert.Equal(t, []string{"batch.kubernetes.io/job-tracking"}, pod.Finalizers)
				for _, c := range append(pod.Spec.InitContainers, pod.Spec.Containers...) {
					require.Len(t, c.Env, 1, c.Name)
					assert.Equal(t, "JOB_COMPLETION_INDEX", c.Env[0].Name)
					assert.Equal(t, "metadata.annotations['batch.kubernetes.io/job-completion-index']", c.Env[0].ValueFrom.FieldRef.FieldPath)
				}
			},
		},
		{
			name: "an Indexed Job with backoffLimitPerIndex counts no failure yet",
			doc: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: b}\nspec:\n  completionMode: Indexed\n  completions: 2\n  backoffLimitPerIndex: 1\n" +
				"  template:\n    spec: " + container,
			wantNames: []string{"b-0-qxkfn"}, wantOwner: "batch/v1 Job b", wantHost: "b-0",
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, map[string]string{
					"batch.kubernetes.io/job-completion-index": "0", "batch.kubernetes.io/job-index-failure-count": "0",
				}, pod.Annotations)
			},
		},
		{
			name: "a Job with a manual selector gets no selector labels",
			doc: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  manualSelector: true\n  selector: {matchLabels: {a: b}}\n" +
				"  template:\n    metadata: {labels: {a: b}}\n    spec: " + container,
			wantNames: []string{"j-tkd5g"}, wantLabels: map[string]string{"a": "b"}, wantOwner: "batch/v1 Job j",
		},
		{
			name: "a CronJob makes Job <name>-<minutes> at the RenderContext's scheduled time",
			doc: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: backup}\nspec:\n  schedule: '0 * * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec: " + container +
				"\n---\nkind: RenderContext\nscheduledTime: 2026-01-01T10:00:00Z",
			wantNames: []string{"backup-29454360-pp7pp"}, wantOwner: "batch/v1 Job backup-29454360",
		},
		{
			name: "List items are read as documents",
			doc: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n  spec: " + container +
				"\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: b}\n  spec: " + container,
			wantNames: []string{"a", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := read(t, tt.opts, tt.doc)
			var names []string
			for _, p := range b.Pods {
				names = append(names, p.Pod.Name)
			}
			require.Equal(t, tt.wantNames, names)
			pod := b.Pods[0].Pod
			if tt.wantLabels != nil {
				assert.Equal(t, tt.wantLabels, pod.Labels)
			}
			if tt.wantOwner != "" {
				require.Len(t, pod.OwnerReferences, 1)
				o := pod.OwnerReferences[0]
				assert.Equal(t, tt.wantOwner, o.APIVersion+" "+o.Kind+" "+o.Name)
				assert.True(t, *o.Controller && *o.BlockOwnerDeletion)
				assert.NotEmpty(t, o.UID)
			}
			assert.Equal(t, tt.wantHost, pod.Spec.Hostname)
			assert.Equal(t, tt.wantSubdom, pod.Spec.Subdomain)
			if tt.wantVolumes != nil {
				var vols []string
				for _, v := range pod.Spec.Volumes {
					s := v.Name
					if v.PersistentVolumeClaim != nil {
						s += "=pvc:" + v.PersistentVolumeClaim.ClaimName
					}
					vols = append(vols, s)
				}
				assert.Equal(t, tt.wantVolumes, vols)
			}
			if pod.Spec.NodeName == "" {
				t.Error("pod not bound to a node")
			}
			if tt.check != nil {
				tt.check(t, pod)
			}
			again := read(t, tt.opts, tt.doc)
			assert.Equal(t, b, again, "the same input gives the same Pods")
		})
	}
}

func TestReadObjectsAndWarnings(t *testing.T) {
	b := read(t, manifest.Options{NodeName: "n1"}, `# only a comment
---
apiVersion: v1
kind: ServiceAccountToken
metadata: {name: sa}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb}
---
apiVersion: policy/v1beta1
kind: PodSecurityPolicy
metadata: {name: old}
---
apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {k: v}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data: {k: v}
---
apiVersion: v1
kind: Service
metadata: {name: svc}
spec: {clusterIP: 10.0.0.9}
---
kind: RenderContext
podIPs: [10.1.0.5]
restartCount: 2
imageUsers: {"app:1": {uid: 1000}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: `+container)
	assert.Equal(t, []string{
		"in.yaml: document 2 (ServiceAccountToken sa): skipped: kind ServiceAccountToken makes no pod and is not read",
		"in.yaml: document 3 (RoleBinding rb): skipped: kind RoleBinding makes no pod and is not read",
		"in.yaml: document 4 (PodSecurityPolicy old): skipped: kind PodSecurityPolicy makes no pod and is not read",
	}, b.Warnings)
	require.Len(t, b.Secrets, 1)
	assert.Equal(t, map[string][]byte{"k": []byte("v")}, b.Secrets[0].Data, "stringData is folded into data")
	assert.Nil(t, b.Secrets[0].StringData)
	assert.Len(t, b.ConfigMaps, 1)
	assert.Len(t, b.Services, 1)
	assert.Equal(t, []string{"10.1.0.5"}, b.Context.PodIPs)
	assert.Equal(t, 2, b.Context.RestartCount)
	assert.Equal(t, int64(1000), *b.Context.ImageUsers["app:1"].UID)
	require.Len(t, b.Pods, 1)
	assert.Equal(t, "n1", b.Pods[0].Pod.Spec.NodeName)
	assert.Equal(t, "in.yaml: document 9 (Pod p)", b.Pods[0].Source)
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		opts    manifest.Options
		wantErr string
	}{
		{"an unknown field names the document and the field", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: b, volumeMount: []}]}",
			manifest.Options{}, `in.yaml: document 1 (Pod p): strict decoding error: unknown field "spec.containers[0].volumeMount"`},
		{"an unquoted yes is a boolean, which a string field refuses, as kubectl and the API server refuse it",
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: b, env: [{name: DEBUG, value: yes}]}]}",
			manifest.Options{}, `in.yaml: document 1 (Pod p): json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string`},
		{"an unquoted number in a string field is refused", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    metadata: {labels: {version: 1.0}}\n    spec: " + container,
			manifest.Options{}, `in.yaml: document 1 (Deployment d): json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string`},
		{"an env name Y is a boolean in YAML 1.1", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: b, env: [{name: Y, value: \"1\"}]}]}",
			manifest.Options{}, `json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.name of type string`},
		{"a document without kind", "apiVersion: v1\nmetadata: {name: p}", manifest.Options{}, "in.yaml: document 1: no kind"},
		{"YAML that does not parse", "apiVersion: v1\nkind: [", manifest.Options{}, "in.yaml: document 1: yaml: line 2: did not find expected node content"},
		{"a DaemonSet template generation that is no number", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds, annotations: {deprecated.daemonset.template.generation: x}}\nspec:\n  template:\n    spec: " + container,
			manifest.Options{}, `in.yaml: document 1 (DaemonSet ds): annotation deprecated.daemonset.template.generation: "x" is not a number`},
		{"a Pod without name", "apiVersion: v1\nkind: Pod\nspec: " + container, manifest.Options{}, "in.yaml: document 1 (Pod): metadata.name or metadata.generateName is required"},
		{"two Nodes", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}", manifest.Options{}, `in.yaml: document 2 (Node b): more than one Node (the first is "a")`},
		{"an ordinal past a Deployment's replicas", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 2\n  template:\n    spec: " + container,
			manifest.Options{Ordinal: ptr.To(2)}, "in.yaml: document 1 (Deployment d): ordinal 2 is outside 0..1 (spec.replicas)"},
		{"an ordinal below a StatefulSet's start", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  ordinals: {start: 3}\n  template:\n    spec: " + container,
			manifest.Options{Ordinal: ptr.To(1)}, "in.yaml: document 1 (StatefulSet s): ordinal 1 is outside the StatefulSet's ordinals 3..3"},
		{"an Indexed Job without completions", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  completionMode: Indexed\n  template:\n    spec: " + container,
			manifest.Options{}, "in.yaml: document 1 (Job j): spec.completions is required for an Indexed Job"},
		{"a List item's error names the item", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n  spec: {bogus: 1}",
			manifest.Options{}, `in.yaml: document 1 item 1 (Pod a): strict decoding error: unknown field "spec.bogus"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := manifest.Read(tt.opts, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(tt.doc)})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			var de *manifest.DocumentError
			assert.ErrorAs(t, err, &de)
		})
	}
}

func TestReadRefusesInputsOver64MiB(t *testing.T) {
	big := bytes.Repeat([]byte("# padding\n"), manifest.MaxInputSize/10+1)
	_, err := manifest.Read(manifest.Options{}, manifest.Input{Reader: bytes.NewReader(big)})
	require.ErrorIs(t, err, manifest.ErrTooLarge)
	assert.Equal(t, "stdin: input larger than 64 MiB: split it into smaller files", err.Error())

}

func TestReadRemovedVersions(t *testing.T) {
	b := read(t, manifest.Options{}, `apiVersion: apps/v1beta1
kind: StatefulSet
metadata: {name: web}
spec:
  template:
    spec: {terminationGracePeriodSeconds: 10, containers: [{name: nginx, image: nginx}]}
---
apiVersion: extensions/v1beta1
kind: Deployment
metadata: {name: d}
spec:
  rollbackTo: {revision: 1}
  template:
    metadata: {labels: {app: d}}
    spec: `+container+`
---
apiVersion: batch/v1beta1
kind: CronJob
metadata: {name: c}
spec:
  schedule: "* * * * *"
  jobTemplate: {spec: {template: {spec: `+container+`}}}
---
apiVersion: apps/v1beta1
kind: Pod
metadata: {name: p}
spec: `+container)
	var names []string
	for _, p := range b.Pods {
		names = append(names, p.Pod.Name)
	}
	assert.Equal(t, []string{"web-0", "d-855db66cfc-sntkz", "c-0-kztx9"}, names)
	assert.Equal(t, []string{
		`in.yaml: document 1 (StatefulSet web): apiVersion "apps/v1beta1" of StatefulSet is no longer served by Kubernetes; read as "apps/v1"`,
		`in.yaml: document 2 (Deployment d): apiVersion "extensions/v1beta1" of Deployment is no longer served by Kubernetes; read as "apps/v1"`,
		`in.yaml: document 3 (CronJob c): apiVersion "batch/v1beta1" of CronJob is no longer served by Kubernetes; read as "batch/v1"`,
		`in.yaml: document 4 (Pod p): skipped: apiVersion "apps/v1beta1" of Pod is not read (want "v1")`,
	}, b.Warnings)
}

func TestReadJSON(t *testing.T) {
	b := read(t, manifest.Options{}, `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j"}, "spec": {"containers": [{"name": "a", "image": "b"}]}}`)
	require.Len(t, b.Pods, 1)
	assert.Equal(t, "j", b.Pods[0].Pod.Name)
}

// kubectl reads a file of JSON objects one after another, with no "---" between them, as a
// stream of documents (kubernetes' own hack/testdata has such files).
func TestReadConcatenatedJSONObjects(t *testing.T) {
	b := read(t, manifest.Options{}, `{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"ports": [{"port": 99}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j"}, "spec": {"containers": [{"name": "a", "image": "b"}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "k"}, "spec": {"containers": [{"name": "a", "image": "b"}]}}`)
	require.Len(t, b.Services, 1)
	require.Len(t, b.Pods, 2)
	assert.Equal(t, "j", b.Pods[0].Pod.Name)
	assert.Equal(t, "k", b.Pods[1].Pod.Name)
	assert.Contains(t, b.Pods[1].Source, "in.yaml: document 3 (Pod k)")
}

// A YAML flow mapping starts with "{" too, and is not JSON.
func TestReadYAMLFlowMappingDocument(t *testing.T) {
	b := read(t, manifest.Options{}, `{apiVersion: v1, kind: Pod, metadata: {name: f}, spec: {containers: [{name: a, image: b}]}}`)
	require.Len(t, b.Pods, 1)
	assert.Equal(t, "f", b.Pods[0].Pod.Name)
}

// YAML aliases repeat what they name. The YAML decoder refuses documents with many aliases, but
// 30 aliases in three levels of ten repeat a 1 MiB string a thousand times: a 1 MiB input would
// become 1 GiB before anything is checked. Read refuses an input whose aliases make it build more
// than MaxExpansion times its size, counting as it builds.
func TestReadRefusesAliasExpansionPastTheInputLimit(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  annotations:\n" +
		"    a: &a \"" + big + "\"\n" +
		"    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n" +
		"    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
		"    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
	_, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.ErrorIs(t, err, manifest.ErrTooLarge)
	require.ErrorIs(t, err, manifest.ErrExpansion)
	assert.EqualError(t, err, "in.yaml: document 1 (ConfigMap bomb): its YAML aliases, merge keys and Lists build more than 16 times the input's size")

	// Aliases that stay small are read as usual.
	b := read(t, manifest.Options{}, "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: &l {app: web}, annotations: *l}\nspec: "+container)
	require.Len(t, b.Pods, 1)
	assert.Equal(t, "web", b.Pods[0].Pod.Annotations["app"])
}

// Editors on Windows start files with a UTF-8 byte order mark; a file of JSON objects that starts
// with one is still read object by object.
func TestReadConcatenatedJSONObjectsAfterByteOrderMark(t *testing.T) {
	b := read(t, manifest.Options{}, "\xef\xbb\xbf"+`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j"}, "spec": {"containers": [{"name": "a", "image": "b"}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "k"}, "spec": {"containers": [{"name": "a", "image": "b"}]}}`)
	require.Len(t, b.Pods, 2)
	assert.Equal(t, "k", b.Pods[1].Pod.Name)
}

// A stream of JSON objects cut short is an error naming the object, as kubectl reports it, not
// the first object alone.
func TestReadTruncatedJSONStreamIsAnError(t *testing.T) {
	doc := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "j"}, "spec": {"containers": [{"name": "a", "image": "b"}]}}
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "k"}, "spec": {"contain`
	_, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.Error(t, err)
	assert.EqualError(t, err, "in.yaml: document 2: unexpected EOF")
}

func TestReadAdmissionObjects(t *testing.T) {
	b := read(t, manifest.Options{}, `apiVersion: v1
kind: ServiceAccount
metadata: {name: robot, namespace: ns}
automountServiceAccountToken: false
---
apiVersion: v1
kind: LimitRange
metadata: {name: lr, namespace: ns}
spec: {limits: [{type: Container, default: {cpu: 500m}}]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
globalDefault: true
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m}}
`)
	assert.Empty(t, b.Warnings)
	require.Len(t, b.ServiceAccounts, 1)
	assert.Equal(t, "robot", b.ServiceAccounts[0].Name)
	require.Len(t, b.LimitRanges, 1)
	assert.Equal(t, "500m", b.LimitRanges[0].Spec.Limits[0].Default.Cpu().String())
	require.Len(t, b.PriorityClasses, 1)
	assert.Equal(t, int32(1000), b.PriorityClasses[0].Value)
	require.Len(t, b.RuntimeClasses, 1)
	assert.Equal(t, "250m", b.RuntimeClasses[0].Overhead.PodFixed.Cpu().String())
}

func TestContinueOnError(t *testing.T) {
	in := `apiVersion: v1
kind: Pod
metadata: {name: good}
spec: {containers: [{name: a, image: a}]}
---
apiVersion: v1
kind: Pod
metadata: {name: bad}
spec: {containers: [{name: a, image: a, bogus: 1}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: indexed}
spec:
  completionMode: Indexed
  template: {spec: {restartPolicy: Never, containers: [{name: a, image: a}]}}
---
apiVersion: v1
kind: Pod
metadata: {name: also-good}
spec: {containers: [{name: a, image: a}]}
`
	_, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(in)})
	require.Error(t, err, "without ContinueOnError the first error stops Read")
	b, err := manifest.Read(manifest.Options{ContinueOnError: true},
		manifest.Input{Name: "in.yaml", Reader: strings.NewReader(in)},
		manifest.Input{Name: "big.yaml", Reader: strings.NewReader(strings.Repeat("#", manifest.MaxInputSize+1))})
	require.NoError(t, err)
	var names []string
	for _, p := range b.Pods {
		names = append(names, p.Pod.Name)
	}
	assert.Equal(t, []string{"good", "also-good"}, names)
	require.Len(t, b.Errors, 3)
	assert.Contains(t, b.Errors[0].Error(), "in.yaml: document 2 (Pod bad): ")
	assert.Contains(t, b.Errors[1].Error(), "big.yaml: input larger than 64 MiB")
	assert.Contains(t, b.Errors[2].Error(), "in.yaml: document 3 (Job indexed): spec.completions is required for an Indexed Job")
}

func TestRenderContextImageUsers(t *testing.T) {
	b := read(t, manifest.Options{}, `apiVersion: podconfig.dev/v1
kind: RenderContext
imageUsers:
  a: 101
  b: {uid: 1000}
  c: "1000:2000"
  d: redis
  e: {username: nobody}
`)
	uid := func(n int64) *int64 { return &n }
	assert.Equal(t, map[string]manifest.ImageUser{
		"a": {UID: uid(101)}, "b": {UID: uid(1000)}, "c": {UID: uid(1000)},
		"d": {Username: "redis"}, "e": {Username: "nobody"},
	}, b.Context.ImageUsers)
	for _, bad := range []string{`{user: 1}`, `-1`, `":1"`, `[1]`} {
		_, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml",
			Reader: strings.NewReader("kind: RenderContext\nimageUsers: {a: " + bad + "}\n")})
		assert.ErrorContains(t, err, "want", bad)
	}
}

func TestDuplicateObjectsNameBothDocuments(t *testing.T) {
	cm := func(ns string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg" + ns + "}\ndata: {k: v}\n"
	}
	_, err := manifest.Read(manifest.Options{},
		manifest.Input{Name: "a.yaml", Reader: strings.NewReader(cm(""))},
		manifest.Input{Name: "b.yaml", Reader: strings.NewReader(cm(", namespace: default"))})
	assert.EqualError(t, err, "b.yaml: document 1 (ConfigMap cfg): ConfigMap default/cfg is also defined by a.yaml: document 1 (ConfigMap cfg); a cluster keeps one: remove or rename one of them")
	_, err = manifest.Read(manifest.Options{}, manifest.Input{Name: "a.yaml", Reader: strings.NewReader(cm("") + "---\n" + cm(", namespace: other"))})
	assert.NoError(t, err, "the same name in another namespace is another object")
	pc := "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1\n"
	_, err = manifest.Read(manifest.Options{}, manifest.Input{Name: "a.yaml", Reader: strings.NewReader(pc + "---\n" + pc)})
	assert.EqualError(t, err, "a.yaml: document 2 (PriorityClass high): PriorityClass high is also defined by a.yaml: document 1 (PriorityClass high); a cluster keeps one: remove or rename one of them")
}

// Pods are identified by UID: two with one UID, or with one namespace and name, in what one Read
// call reads are an error naming both documents, never two pods that would share a pod
// directory. A Pod with no namespace is in "default", and one with no UID has the UID
// defaults.SetRenderIdentity gives it.
func TestReadRefusesDuplicatePods(t *testing.T) {
	pod := func(meta string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: " + meta + "\nspec: " + container + "\n"
	}
	tests := []struct {
		name    string
		docs    []string
		wantErr string
	}{
		{"the same Pod twice", []string{pod("{name: p, namespace: ns}"), pod("{name: p, namespace: ns}")},
			`in.yaml: document 1 (Pod p) and in.yaml: document 2 (Pod p): two pods named ns/p`},
		{"one Pod in default, named with and without its namespace", []string{pod("{name: p}"), pod("{name: p, namespace: default}")},
			`in.yaml: document 1 (Pod p) and in.yaml: document 2 (Pod p): two pods named default/p`},
		{"two Pods with one UID", []string{pod("{name: a, uid: 0b4d3c3a-0000-4000-8000-000000000001}"), pod("{name: b, uid: 0b4d3c3a-0000-4000-8000-000000000001}")},
			`in.yaml: document 1 (Pod a) and in.yaml: document 2 (Pod b): two pods with UID 0b4d3c3a-0000-4000-8000-000000000001 (default/a and default/b)`},
		{"a UID that is another pod's render UID", []string{pod("{name: a}"), pod("{name: b, uid: " + string(defaults.RenderUID("default", "a")) + "}")},
			`in.yaml: document 1 (Pod a) and in.yaml: document 2 (Pod b): two pods with UID ` + string(defaults.RenderUID("default", "a")) + ` (default/a and default/b)`},
		{"the same Deployment twice", []string{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {spec: " + container + "}}\n",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {spec: " + container + "}}\n"},
			`in.yaml: document 1 (Deployment d) and in.yaml: document 2 (Deployment d): two pods named default/d-`},
		{"a List item and a document", []string{pod("{name: p}"), "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(pod("{name: p}"), "\n"), "\n", "\n  ")},
			`in.yaml: document 1 (Pod p) and in.yaml: document 2 item 1 (Pod p): two pods named default/p`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(strings.Join(tt.docs, "---\n"))})
			require.ErrorIs(t, err, manifest.ErrDuplicatePod)
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}

	t.Run("across inputs", func(t *testing.T) {
		_, err := manifest.Read(manifest.Options{},
			manifest.Input{Name: "a.yaml", Reader: strings.NewReader(pod("{name: p}"))},
			manifest.Input{Name: "b.yaml", Reader: strings.NewReader(pod("{name: p}"))})
		require.ErrorIs(t, err, manifest.ErrDuplicatePod)
		assert.EqualError(t, err, "a.yaml: document 1 (Pod p) and b.yaml: document 1 (Pod p): two pods named default/p")
	})
	t.Run("with ContinueOnError the second is left out", func(t *testing.T) {
		b, err := manifest.Read(manifest.Options{ContinueOnError: true}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(pod("{name: p}") + "---\n" + pod("{name: p}"))})
		require.NoError(t, err)
		require.Len(t, b.Pods, 1)
		assert.Equal(t, "in.yaml: document 1 (Pod p)", b.Pods[0].Source)
		require.Len(t, b.Errors, 1)
		assert.ErrorIs(t, b.Errors[0], manifest.ErrDuplicatePod)
	})
	t.Run("pods made from generateName differ", func(t *testing.T) {
		b := read(t, manifest.Options{}, pod("{generateName: x-}")+"---\n"+pod("{generateName: x-}"))
		require.Len(t, b.Pods, 2)
		assert.NotEqual(t, b.Pods[0].Pod.Name, b.Pods[1].Pod.Name)
	})
	t.Run("replicas of one workload differ", func(t *testing.T) {
		b := read(t, manifest.Options{Replicas: 3}, "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: r}\nspec: {replicas: 3, template: {spec: "+container+"}}\n")
		require.Len(t, b.Pods, 3)
	})
	t.Run("CheckPods on its own", func(t *testing.T) {
		p := func(ns, name, uid, source string) manifest.Pod {
			return manifest.Pod{Pod: &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(uid)}}, Source: source}
		}
		assert.NoError(t, manifest.CheckPods([]manifest.Pod{p("a", "x", "", "one"), p("b", "x", "", "two")}))
		err := manifest.CheckPods([]manifest.Pod{p("a", "x", "u1", "one"), p("b", "y", "u1", "two")})
		require.ErrorIs(t, err, manifest.ErrDuplicatePod)
		assert.EqualError(t, err, "one and two: two pods with UID u1 (a/x and b/y)")
		assert.EqualError(t, manifest.CheckPods([]manifest.Pod{{Source: "nil"}}), "nil: no pod")
	})
}

// JSON is read by the YAML parser, whose double-quoted strings lack two of JSON's escapes: an
// escaped slash and a character outside the Basic Multilingual Plane written as a UTF-16
// surrogate pair. Both are read as kubectl's JSON decoder reads them.
func TestReadJSONEscapesYAMLLacks(t *testing.T) {
	b := read(t, manifest.Options{}, `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
 "data": {"url": "http:\/\/example.com\/x", "smile": "\ud83d\ude00", "lone": "a\ud800b", "plain": "\u00e9\\\/\n"}}
{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "d"}, "data": {"k": "\\\\\/"}}`)
	require.Len(t, b.ConfigMaps, 2)
	assert.Equal(t, map[string]string{"url": "http://example.com/x", "smile": "😀", "lone": "a\ufffdb", "plain": "é\\/\n"}, b.ConfigMaps[0].Data)
	assert.Equal(t, map[string]string{"k": `\\/`}, b.ConfigMaps[1].Data)
}

func TestRenderContextImageUserKeys(t *testing.T) {
	uid := func(n int64) *int64 { return &n }
	t.Run("the keys are kept as written and the default is read", func(t *testing.T) {
		b := read(t, manifest.Options{}, "kind: RenderContext\nimageUsers: {nginx: 101, \"nginx:*\": 102, \"docker.io/library/nginx:latest\": 101}\ndefaultImageUser: \"65532:65532\"\n")
		assert.Equal(t, map[string]manifest.ImageUser{
			"nginx": {UID: uid(101)}, "nginx:*": {UID: uid(102)}, "docker.io/library/nginx:latest": {UID: uid(101)},
		}, b.Context.ImageUsers, "two spellings of one image with one user are accepted")
		assert.Equal(t, &manifest.ImageUser{UID: uid(65532)}, b.Context.DefaultImageUser)
	})
	for _, tc := range []struct {
		name    string
		doc     string
		wantErr string
	}{
		{"a key that is no image reference is refused, named",
			"imageUsers: {Nginx: 1}",
			`in.yaml: document 1 (RenderContext): imageUsers: couldn't parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase`},
		{"a repository pattern with a tag is refused",
			"imageUsers: {\"nginx:1:*\": 1}",
			`in.yaml: document 1 (RenderContext): imageUsers: image pattern "nginx:1:*": NAME:* names every tag and digest of a repository, and takes neither`},
		{"two keys of one image with different users are refused, both named",
			"imageUsers: {nginx: 1, \"docker.io/library/nginx:latest\": 2}",
			`in.yaml: document 1 (RenderContext): imageUsers: "docker.io/library/nginx:latest" and "nginx" both name docker.io/library/nginx:latest, with different users`},
		{"two spellings of one repository with different users are refused",
			"imageUsers: {\"nginx:*\": 1, \"index.docker.io/library/nginx:*\": {username: web}}",
			`in.yaml: document 1 (RenderContext): imageUsers: "index.docker.io/library/nginx:*" and "nginx:*" both name docker.io/library/nginx:*, with different users`},
		{"a default user is read as an image's",
			"defaultImageUser: -1",
			`in.yaml: document 1 (RenderContext): image user -1: want {uid: N}, {username: NAME}, N or "UID[:GID]"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader("kind: RenderContext\n" + tc.doc + "\n")})
			assert.EqualError(t, err, tc.wantErr)
		})
	}
}
