package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	kjson "sigs.k8s.io/json"
)

// reader collects documents; workloads are expanded once every input is read, so a Node in any
// input binds them.
type reader struct {
	opts   Options
	bundle *Bundle
	// workloads are the Pods and controllers read, as compact JSON: decoded, they take many
	// times their size, so each is decoded again only when its Pods are made.
	workloads []workload
	// configMaps and secrets are the ConfigMaps and Secrets read, as compact JSON.
	configMaps, secrets storedObjects
	context             bool
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

// workload is a Pod or controller waiting to become Pods: its kind and its JSON, which decoded
// without error when it was read.
type workload struct {
	source string
	kind   string
	js     []byte
}

// newWorkload is an empty object of a kind that makes Pods, or nil.
func newWorkload(kind string) interface{} {
	switch kind {
	case "Pod":
		return &v1.Pod{}
	case "ReplicationController":
		return &v1.ReplicationController{}
	case "Deployment":
		return &appsv1.Deployment{}
	case "StatefulSet":
		return &appsv1.StatefulSet{}
	case "DaemonSet":
		return &appsv1.DaemonSet{}
	case "ReplicaSet":
		return &appsv1.ReplicaSet{}
	case "Job":
		return &batchv1.Job{}
	case "CronJob":
		return &batchv1.CronJob{}
	}
	return nil
}

// decode decodes the workload again. Its JSON passed the strict decoding when it was read, so
// the plain decoding makes the same object.
func (w *workload) decode() (interface{}, error) {
	obj := newWorkload(w.kind)
	if obj == nil {
		return nil, fmt.Errorf("unexpected kind %s", w.kind)
	}
	return obj, decodeLenient(w.js, obj)
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
	data, err := readAll(in.Reader)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	stream, jsonErr := jsonStream(data)
	b := newBuilder(len(data))
	count := newDocCounter(stream)
	docs := yamlv3.NewDecoder(bytes.NewReader(stream))
	n := 0
	for {
		var doc yamlv3.Node
		err := docs.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if line := errorLine(err); line > 0 {
				n = count.at(line) - 1
			}
			return &DocumentError{Document: docName(name, n+1, 0, "", ""), Err: err}
		}
		if isBlank(&doc) {
			continue
		}
		n = count.at(contentLine(&doc))
		if err := r.readDocument(b, name, n, 0, &doc); err != nil {
			if errors.Is(err, ErrExpansion) {
				return err // the input's budget is spent: what follows would fail the same way
			}
			if err = r.failed(err); err != nil {
				return err
			}
		}
	}
	if jsonErr != nil {
		return &DocumentError{Document: docName(name, n+1, 0, "", ""), Err: jsonErr}
	}
	return nil
}

// contentLine is the line where a document's content starts.
func contentLine(doc *yamlv3.Node) int {
	if len(doc.Content) > 0 && doc.Content[0].Line > 0 {
		return doc.Content[0].Line
	}
	return doc.Line
}

// readAll reads an input of at most MaxInputSize bytes.
func readAll(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxInputSize {
		return nil, fmt.Errorf("%w: split it into smaller files", ErrTooLarge)
	}
	return data, nil
}

// isBlank reports a document with nothing in it, not even a comment, such as the one before a
// leading "---"; it is not counted.
func isBlank(doc *yamlv3.Node) bool {
	if len(doc.Content) != 1 || doc.HeadComment != "" || doc.LineComment != "" || doc.FootComment != "" {
		return len(doc.Content) == 0
	}
	c := doc.Content[0]
	return c.Kind == yamlv3.ScalarNode && c.Value == "" && c.Style == 0 && c.Anchor == "" &&
		c.HeadComment == "" && c.LineComment == "" && c.FootComment == ""
}

// jsonStream makes an input that is a stream of JSON objects with nothing between them, as
// kubectl reads a file of them, into YAML documents, one per object, for the one parser that
// reads every input (with the escapes YAML lacks rewritten, see yamlEscapes). Any other input, a YAML flow mapping such as "{kind: Pod}" included, is
// returned as it is. Once one object has been read, what follows must be JSON objects too: a
// stream cut short or followed by anything else is an error, returned with the objects before it.
func jsonStream(data []byte) ([]byte, error) {
	// A UTF-8 byte order mark may start the file, as the YAML parser allows.
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(data), []byte("\xef\xbb\xbf")))
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return data, nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var stream []byte
	for objects := 0; ; objects++ {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return stream, nil
		}
		if objects == 0 && (err != nil || len(raw) == 0 || raw[0] != '{') {
			return data, nil
		}
		if err != nil {
			return stream, err
		}
		if raw[0] != '{' {
			return stream, fmt.Errorf("a JSON object was expected, not %.20s", raw)
		}
		if objects == 0 {
			stream = make([]byte, 0, len(trimmed)+64)
		} else {
			stream = append(stream, "\n---\n"...)
		}
		// The object as written (the decoder copies it into raw anyway); a JSON object holds
		// no line that YAML would read as a document marker.
		stream = append(stream, yamlEscapes(bytes.TrimSpace(trimmed[start:dec.InputOffset()]))...)
	}
}

// readDocument adds one document (or one item of a List) to the bundle.
func (r *reader) readDocument(b *builder, input string, n, item int, node *yamlv3.Node) error {
	if node.Kind == yamlv3.DocumentNode {
		if len(node.Content) == 0 {
			return nil
		}
		node = node.Content[0]
	}
	at := docName(input, n, item, "", "")
	root, err := b.follow(node)
	if err != nil {
		return &DocumentError{Document: at, Err: err}
	}
	defer b.unfollow(node)
	switch root.Kind {
	case yamlv3.MappingNode:
	case yamlv3.ScalarNode:
		if s, err := resolveScalar(root); err == nil && s.kind == kindNull {
			return nil // a document of nothing but comments, or an empty List item
		}
		return &DocumentError{Document: at, Err: errors.New("a document must be a mapping (an object) with a kind")}
	default:
		return &DocumentError{Document: at, Err: errors.New("a document must be a mapping (an object) with a kind, not a sequence")}
	}
	m, err := b.mappingOf(root)
	if err != nil {
		return &DocumentError{Document: at, Err: err}
	}
	h, err := b.header(m)
	if err != nil {
		return &DocumentError{Document: at, Err: err}
	}
	source := docName(input, n, item, h.Kind, h.Metadata.Name)
	if h.Kind == "" {
		return &DocumentError{Document: source, Err: errors.New("no kind")}
	}
	if err := r.add(b, input, n, source, h, m); err != nil {
		return &DocumentError{Document: source, Err: err}
	}
	return nil
}

// header reads what a document says about itself, without building the rest of it.
func (b *builder) header(m *mapping) (header, error) {
	var h header
	var err error
	if h.APIVersion, err = b.stringField(m, "apiVersion"); err != nil {
		return h, err
	}
	if h.Kind, err = b.stringField(m, "kind"); err != nil {
		return h, err
	}
	meta := m.get("metadata")
	if meta == nil {
		return h, nil
	}
	target, err := b.follow(meta)
	if err != nil {
		return h, err
	}
	defer b.unfollow(meta)
	if target.Kind != yamlv3.MappingNode {
		return h, nil // the strict decoding of the document reports it
	}
	mm, err := b.mappingOf(target)
	if err != nil {
		return h, err
	}
	if h.Metadata.Name, err = b.stringField(mm, "name"); err != nil {
		return h, fmt.Errorf("metadata: %w", err)
	}
	if h.Metadata.Namespace, err = b.stringField(mm, "namespace"); err != nil {
		return h, fmt.Errorf("metadata: %w", err)
	}
	return h, nil
}

// stringField is the string value of key, "" when it is missing or null.
func (b *builder) stringField(m *mapping, key string) (string, error) {
	n := m.get(key)
	if n == nil {
		return "", nil
	}
	target, err := b.follow(n)
	if err != nil {
		return "", err
	}
	defer b.unfollow(n)
	if target.Kind == yamlv3.ScalarNode {
		s, err := resolveScalar(target)
		if err != nil {
			return "", err
		}
		switch s.kind {
		case kindString:
			return s.str, b.spend(len(s.str))
		case kindNull:
			return "", nil
		}
	}
	return "", fmt.Errorf("line %d: %s must be a string", n.Line, key)
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

func (r *reader) add(b *builder, input string, n int, source string, h header, m *mapping) error {
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
	lenient := false
	if h.APIVersion != want && h.Kind != "RenderContext" { // podconfig's own kind: any group names it
		if !removedVersions[h.Kind+" "+h.APIVersion] {
			r.bundle.Warnings = append(r.bundle.Warnings, fmt.Sprintf("%s: skipped: apiVersion %q of %s is not read (want %q)", source, h.APIVersion, h.Kind, want))
			return nil
		}
		// The pod template of these removed versions is the same core/v1 PodTemplateSpec; their
		// other fields that the current version dropped are ignored.
		r.bundle.Warnings = append(r.bundle.Warnings, fmt.Sprintf("%s: apiVersion %q of %s is no longer served by Kubernetes; read as %q", source, h.APIVersion, h.Kind, want))
		lenient = true
	}
	// decode builds the document's JSON in the builder's scratch space and decodes it into v,
	// returning the JSON, valid until the next document.
	decode := func(v interface{}) ([]byte, error) {
		js, err := b.appendMapping(b.scratch[:0], m, !lenient)
		if err != nil {
			return nil, err
		}
		b.scratch = js
		if lenient {
			return js, decodeLenient(js, v)
		}
		return js, decodeStrict(js, v)
	}
	strict := func(v interface{}) error {
		_, err := decode(v)
		return err
	}
	if obj := newWorkload(h.Kind); obj != nil {
		// Decoded once, so that its errors are reading's, and dropped: it is decoded again
		// when its Pods are made.
		js, err := decode(obj)
		if err != nil {
			return err
		}
		r.workloads = append(r.workloads, workload{source: source, kind: h.Kind, js: bytes.Clone(js)})
		return nil
	}
	switch h.Kind {
	case "ConfigMap":
		// Checked, and kept as JSON: pods read a few of an input's ConfigMaps and Secrets by
		// name, and decoded each takes several times its size.
		cm := &v1.ConfigMap{}
		js, err := decode(cm)
		if err != nil {
			return err
		}
		if err := r.addObject(source, "ConfigMap", true, cm.Namespace, cm.Name); err != nil {
			return err
		}
		r.configMaps.add(cm.Namespace, cm.Name, js)
	case "Secret":
		s := &v1.Secret{}
		js, err := decode(s)
		if err != nil {
			return err
		}
		if err := r.addObject(source, "Secret", true, s.Namespace, s.Name); err != nil {
			return err
		}
		r.secrets.add(s.Namespace, s.Name, js)
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
		if err := checkImageUsers(c.ImageUsers); err != nil {
			return err
		}
		r.bundle.Context, r.context = c.RenderContext, true
	default: // List and <Kind>List
		return r.readItems(b, input, n, m)
	}
	return nil
}

// readItems reads the items of a List, each once: a List inside it is read from the same tree,
// not decoded again.
func (r *reader) readItems(b *builder, input string, n int, m *mapping) error {
	items := m.get("items")
	if items == nil {
		return nil
	}
	target, err := b.follow(items)
	if err != nil {
		return err
	}
	defer b.unfollow(items)
	switch target.Kind {
	case yamlv3.SequenceNode:
	case yamlv3.ScalarNode:
		if s, err := resolveScalar(target); err == nil && s.kind == kindNull {
			return nil
		}
		return errors.New("items must be a sequence")
	default:
		return errors.New("items must be a sequence")
	}
	if err := b.enter(); err != nil {
		return err
	}
	defer b.leave()
	for i, item := range target.Content {
		if err := b.spend(itemCost); err != nil {
			return err
		}
		if err := r.readDocument(b, input, n, i+1, item); err != nil {
			return err
		}
	}
	return nil
}

// decodeStrict decodes a document's JSON as kubectl and the API server do. The YAML became JSON
// on its own, without looking at the target type (so an unquoted yes or 1 stays a boolean or a
// number, which a string field refuses, instead of becoming "true" or "1"), and a duplicate key
// was an error; the JSON is decoded case-sensitively, and an unknown or duplicate field is an
// error, as the API server's strict field validation reports it.
func decodeStrict(js []byte, v interface{}) error {
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
func decodeLenient(js []byte, v interface{}) error {
	return kjson.UnmarshalCaseSensitivePreserveInts(js, v)
}
