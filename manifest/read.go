package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// reader collects documents; workloads are expanded once every input is read, so a Node in any
// input binds them.
type reader struct {
	opts      Options
	bundle    *Bundle
	workloads []workload
	context   bool
	// objects maps kind/namespace/name of each object read to its document, so that a second
	// object of the same name is refused instead of silently replacing the first.
	objects map[string]string
}

// addObject records an object; one already read under the same kind, namespace and name is an
// error naming both documents. Namespaced objects without a namespace are in "default".
func (r *reader) addObject(source, kind string, namespaced bool, namespace, name string) error {
	id := name
	if namespaced {
		if namespace == "" {
			namespace = "default"
		}
		id = namespace + "/" + name
	}
	key := kind + " " + id
	if first, dup := r.objects[key]; dup {
		return fmt.Errorf("%s %s is also defined by %s; a cluster keeps one: remove or rename one of them", kind, id, first)
	}
	if r.objects == nil {
		r.objects = map[string]string{}
	}
	r.objects[key] = source
	return nil
}

// workload is a decoded Pod or controller waiting to become Pods.
type workload struct {
	source string
	obj    interface{}
}

// header is what every document says about itself.
type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
}

func (r *reader) readInput(in Input) error {
	name := in.Name
	if name == "" || name == "-" {
		name = "stdin"
	}
	data, err := io.ReadAll(io.LimitReader(in.Reader, MaxInputSize+1))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxInputSize {
		return fmt.Errorf("%s: %w: split it into smaller files", name, ErrTooLarge)
	}
	docs := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	n := 0
	for {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return &DocumentError{Document: docName(name, n+1, 0, "", ""), Err: err}
		}
		objs, jsonErr := jsonObjects(doc)
		for _, obj := range objs {
			n++
			if err := r.readDocument(name, n, 0, obj); err != nil {
				if err = r.failed(err); err != nil {
					return err
				}
			}
		}
		if jsonErr != nil {
			return &DocumentError{Document: docName(name, n+1, 0, "", ""), Err: jsonErr}
		}
	}
}

// jsonObjects splits a document that is a stream of JSON objects with nothing between them, as
// kubectl reads a file of them, into one document per object. Any other document, a YAML flow
// mapping such as "{kind: Pod}" included, is returned whole. Once one object has been read, what
// follows must be JSON objects too: a stream cut short or followed by anything else is an error,
// returned with the objects before it.
func jsonObjects(doc []byte) ([][]byte, error) {
	// A UTF-8 byte order mark may start the file, as the YAML decoder allows.
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(doc), []byte("\xef\xbb\xbf")))
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return [][]byte{doc}, nil
	}
	var objs [][]byte
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if len(objs) == 0 && (err != nil || len(raw) == 0 || raw[0] != '{') {
			return [][]byte{doc}, nil
		}
		if err != nil {
			return objs, err
		}
		if raw[0] != '{' {
			return objs, fmt.Errorf("a JSON object was expected, not %.20s", raw)
		}
		objs = append(objs, raw)
	}
}

// readDocument adds one document (or one item of a List) to the bundle.
func (r *reader) readDocument(input string, n, item int, doc []byte) error {
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil
	}
	if err := checkAliasExpansion(doc); err != nil {
		return &DocumentError{Document: docName(input, n, item, "", ""), Err: err}
	}
	var h header
	if err := yaml.Unmarshal(doc, &h); err != nil {
		return &DocumentError{Document: docName(input, n, item, "", ""), Err: err}
	}
	source := docName(input, n, item, h.Kind, h.Metadata.Name)
	if h.Kind == "" {
		// A document of nothing but comments decodes to nothing; anything else needs a kind.
		var any interface{}
		if err := yaml.Unmarshal(doc, &any); err == nil && any == nil {
			return nil
		}
		return &DocumentError{Document: source, Err: errors.New("no kind")}
	}
	if err := r.add(input, n, source, h, doc); err != nil {
		return &DocumentError{Document: source, Err: err}
	}
	return nil
}

// kinds are the kinds Read understands, with the apiVersion each must have.
var kinds = map[string]string{
	"Pod": "v1", "ConfigMap": "v1", "Secret": "v1", "Service": "v1", "Node": "v1",
	"ReplicationController": "v1", "List": "v1",
	"Deployment": "apps/v1", "StatefulSet": "apps/v1", "DaemonSet": "apps/v1", "ReplicaSet": "apps/v1",
	"Job": "batch/v1", "CronJob": "batch/v1",
	"ServiceAccount": "v1", "LimitRange": "v1",
	"PriorityClass": "scheduling.k8s.io/v1", "RuntimeClass": "node.k8s.io/v1",
	"RenderContext": "",
}

// removedVersions are the beta versions of workload kinds that Kubernetes no longer serves but
// that manifests in the wild still use; they are read as the current version, with a warning.
var removedVersions = map[string]bool{
	"Deployment extensions/v1beta1": true, "Deployment apps/v1beta1": true, "Deployment apps/v1beta2": true,
	"DaemonSet extensions/v1beta1": true, "DaemonSet apps/v1beta2": true,
	"ReplicaSet extensions/v1beta1": true, "ReplicaSet apps/v1beta2": true,
	"StatefulSet apps/v1beta1": true, "StatefulSet apps/v1beta2": true,
	"CronJob batch/v1beta1": true, "CronJob batch/v2alpha1": true,
}

func (r *reader) add(input string, n int, source string, h header, doc []byte) error {
	want, known := kinds[h.Kind]
	if !known {
		if list := len(h.Kind) > 4 && h.Kind[len(h.Kind)-4:] == "List"; list {
			known, want = true, h.APIVersion // PodList, DeploymentList, ...: read their items
		}
	}
	if !known {
		r.bundle.Warnings = append(r.bundle.Warnings, source+": skipped: kind "+h.Kind+" makes no pod and is not read")
		return nil
	}
	strict := func(v interface{}) error { return decodeStrict(doc, v) }
	if h.APIVersion != want && h.Kind != "RenderContext" { // podconfig's own kind: any group names it
		if !removedVersions[h.Kind+" "+h.APIVersion] {
			r.bundle.Warnings = append(r.bundle.Warnings, fmt.Sprintf("%s: skipped: apiVersion %q of %s is not read (want %q)", source, h.APIVersion, h.Kind, want))
			return nil
		}
		// The pod template of these removed versions is the same core/v1 PodTemplateSpec; their
		// other fields that the current version dropped are ignored.
		r.bundle.Warnings = append(r.bundle.Warnings, fmt.Sprintf("%s: apiVersion %q of %s is no longer served by Kubernetes; read as %q", source, h.APIVersion, h.Kind, want))
		strict = func(v interface{}) error { return decodeLenient(doc, v) }
	}
	switch h.Kind {
	case "Pod":
		return r.decodeWorkload(source, strict, &v1.Pod{})
	case "ReplicationController":
		return r.decodeWorkload(source, strict, &v1.ReplicationController{})
	case "Deployment":
		return r.decodeWorkload(source, strict, &appsv1.Deployment{})
	case "StatefulSet":
		return r.decodeWorkload(source, strict, &appsv1.StatefulSet{})
	case "DaemonSet":
		return r.decodeWorkload(source, strict, &appsv1.DaemonSet{})
	case "ReplicaSet":
		return r.decodeWorkload(source, strict, &appsv1.ReplicaSet{})
	case "Job":
		return r.decodeWorkload(source, strict, &batchv1.Job{})
	case "CronJob":
		return r.decodeWorkload(source, strict, &batchv1.CronJob{})
	case "ConfigMap":
		cm := &v1.ConfigMap{}
		if err := strict(cm); err != nil {
			return err
		}
		if err := r.addObject(source, "ConfigMap", true, cm.Namespace, cm.Name); err != nil {
			return err
		}
		r.bundle.ConfigMaps = append(r.bundle.ConfigMaps, cm)
	case "Secret":
		s := &v1.Secret{}
		if err := strict(s); err != nil {
			return err
		}
		if err := r.addObject(source, "Secret", true, s.Namespace, s.Name); err != nil {
			return err
		}
		for k, v := range s.StringData {
			if s.Data == nil {
				s.Data = map[string][]byte{}
			}
			s.Data[k] = []byte(v)
		}
		s.StringData = nil
		r.bundle.Secrets = append(r.bundle.Secrets, s)
	case "Service":
		svc := &v1.Service{}
		if err := strict(svc); err != nil {
			return err
		}
		if err := r.addObject(source, "Service", true, svc.Namespace, svc.Name); err != nil {
			return err
		}
		r.bundle.Services = append(r.bundle.Services, svc)
	case "ServiceAccount":
		sa := &v1.ServiceAccount{}
		if err := strict(sa); err != nil {
			return err
		}
		if err := r.addObject(source, "ServiceAccount", true, sa.Namespace, sa.Name); err != nil {
			return err
		}
		r.bundle.ServiceAccounts = append(r.bundle.ServiceAccounts, sa)
	case "LimitRange":
		lr := &v1.LimitRange{}
		if err := strict(lr); err != nil {
			return err
		}
		if err := r.addObject(source, "LimitRange", true, lr.Namespace, lr.Name); err != nil {
			return err
		}
		r.bundle.LimitRanges = append(r.bundle.LimitRanges, lr)
	case "PriorityClass":
		pc := &schedulingv1.PriorityClass{}
		if err := strict(pc); err != nil {
			return err
		}
		if err := r.addObject(source, "PriorityClass", false, pc.Namespace, pc.Name); err != nil {
			return err
		}
		r.bundle.PriorityClasses = append(r.bundle.PriorityClasses, pc)
	case "RuntimeClass":
		rc := &nodev1.RuntimeClass{}
		if err := strict(rc); err != nil {
			return err
		}
		if err := r.addObject(source, "RuntimeClass", false, rc.Namespace, rc.Name); err != nil {
			return err
		}
		r.bundle.RuntimeClasses = append(r.bundle.RuntimeClasses, rc)
	case "Node":
		if r.bundle.Node != nil {
			return fmt.Errorf("more than one Node (the first is %q)", r.bundle.Node.Name)
		}
		node := &v1.Node{}
		if err := strict(node); err != nil {
			return err
		}
		r.bundle.Node = node
	case "RenderContext":
		if r.context {
			return errors.New("more than one RenderContext")
		}
		var c struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			RenderContext
		}
		if err := strict(&c); err != nil {
			return err
		}
		r.bundle.Context, r.context = c.RenderContext, true
	default: // List and <Kind>List
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := yaml.Unmarshal(doc, &list); err != nil {
			return err
		}
		for i, raw := range list.Items {
			if err := r.readDocument(input, n, i+1, raw); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeStrict decodes a document as kubectl and the API server do: the YAML becomes JSON on its
// own, without looking at the target type (so an unquoted yes or 1 stays a boolean or a number,
// which a string field refuses, instead of becoming "true" or "1"), and a duplicate key is an
// error; the JSON is then decoded case-sensitively, and an unknown or duplicate field is an error,
// as the API server's strict field validation reports it.
func decodeStrict(doc []byte, v interface{}) error {
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return err
	}
	strictErrs, err := kjson.UnmarshalStrict(js, v)
	if err != nil {
		return err
	}
	if len(strictErrs) > 0 {
		msgs := make([]string, len(strictErrs))
		for i, e := range strictErrs {
			msgs[i] = e.Error()
		}
		return errors.New("strict decoding error: " + strings.Join(msgs, ", "))
	}
	return nil
}

// decodeLenient is decodeStrict without the unknown- and duplicate-field checks, for removed
// versions whose other fields the current version dropped.
func decodeLenient(doc []byte, v interface{}) error {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return err
	}
	return kjson.UnmarshalCaseSensitivePreserveInts(js, v)
}

func (r *reader) decodeWorkload(source string, strict func(interface{}) error, obj interface{}) error {
	if err := strict(obj); err != nil {
		return err
	}
	r.workloads = append(r.workloads, workload{source: source, obj: obj})
	return nil
}
