package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	v1 "k8s.io/api/core/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// renderContext is the node state a real kubelet would know and a YAML file cannot: it comes as a
// document of kind RenderContext. Every field is optional.
type renderContext struct {
	// PodIPs are the pod's IPs as the network plugin assigned them.
	PodIPs []string `json:"podIPs"`
	// ImageUsers maps an image to the user it runs as: {"uid": 1000} or {"username": "app"}.
	// An image not listed runs as root, as kubelet assumes for an image that names no user.
	ImageUsers map[string]imageUser `json:"imageUsers"`
	// RestartCount is the restart count to render for every container.
	RestartCount int `json:"restartCount"`
}

type imageUser struct {
	UID      *int64 `json:"uid"`
	Username string `json:"username"`
}

// input is everything read from the YAML stream.
type input struct {
	pod        *v1.Pod
	node       *v1.Node
	configMaps []*v1.ConfigMap
	secrets    []*v1.Secret
	services   []*v1.Service
	context    renderContext
}

// load reads a multi-document YAML (or JSON) stream: exactly one Pod, plus any ConfigMaps,
// Secrets, Services, at most one Node and at most one RenderContext.
func load(r io.Reader) (*input, error) {
	in := &input{}
	docs := utilyaml.NewYAMLReader(bufio.NewReader(r))
	for n := 1; ; n++ {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var head struct {
			Kind string `json:"kind"`
		}
		if err := yaml.Unmarshal(doc, &head); err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		if head.Kind == "" {
			// A document of nothing but comments decodes to no kind; anything else needs one.
			var any map[string]interface{}
			if err := yaml.Unmarshal(doc, &any); err == nil && len(any) == 0 {
				continue
			}
			return nil, fmt.Errorf("document %d: no kind", n)
		}
		if err := in.add(head.Kind, doc); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", n, head.Kind, err)
		}
	}
	if in.pod == nil {
		return nil, errors.New("no Pod in the input")
	}
	return in, nil
}

func (in *input) add(kind string, doc []byte) error {
	strict := func(v interface{}) error { return yaml.UnmarshalStrict(doc, v) }
	switch kind {
	case "Pod":
		if in.pod != nil {
			return errors.New("more than one Pod")
		}
		in.pod = &v1.Pod{}
		return strict(in.pod)
	case "Node":
		if in.node != nil {
			return errors.New("more than one Node")
		}
		in.node = &v1.Node{}
		return strict(in.node)
	case "ConfigMap":
		cm := &v1.ConfigMap{}
		in.configMaps = append(in.configMaps, cm)
		return strict(cm)
	case "Secret":
		s := &v1.Secret{}
		if err := strict(s); err != nil {
			return err
		}
		// The API server folds stringData into data; kubelet only ever sees data.
		for k, v := range s.StringData {
			if s.Data == nil {
				s.Data = map[string][]byte{}
			}
			s.Data[k] = []byte(v)
		}
		s.StringData = nil
		in.secrets = append(in.secrets, s)
		return nil
	case "Service":
		svc := &v1.Service{}
		in.services = append(in.services, svc)
		return strict(svc)
	case "RenderContext":
		var c struct {
			Kind string `json:"kind"`
			renderContext
		}
		if err := strict(&c); err != nil {
			return err
		}
		in.context = c.renderContext
		return nil
	default:
		return fmt.Errorf("unsupported kind %q (want Pod, ConfigMap, Secret, Service, Node or RenderContext)", kind)
	}
}
