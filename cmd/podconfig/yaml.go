package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	yamlv3 "go.yaml.in/yaml/v3"
)

// jsonToYAML re-encodes a JSON document as YAML, keeping the order of its fields (the CRI
// messages' own order) and their types: strings that would read as numbers or booleans are
// quoted, multi-line strings such as the hosts file become literal blocks.
func jsonToYAML(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	node, err := yamlNode(dec)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yamlv3.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// yamlNode reads one JSON value from dec as a YAML node.
func yamlNode(dec *json.Decoder) (*yamlv3.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	scalar := func(tag, value string) *yamlv3.Node {
		return &yamlv3.Node{Kind: yamlv3.ScalarNode, Tag: tag, Value: value}
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &yamlv3.Node{Kind: yamlv3.SequenceNode, Tag: "!!seq"}
		if t == '{' {
			n = &yamlv3.Node{Kind: yamlv3.MappingNode, Tag: "!!map"}
		}
		for dec.More() {
			if n.Kind == yamlv3.MappingNode {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, scalar("!!str", fmt.Sprint(key)))
			}
			v, err := yamlNode(dec)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, v)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		return scalar("!!str", t), nil
	case json.Number:
		if _, err := t.Int64(); err == nil {
			return scalar("!!int", t.String()), nil
		}
		return scalar("!!float", t.String()), nil
	case bool:
		return scalar("!!bool", fmt.Sprint(t)), nil
	case nil:
		return scalar("!!null", "null"), nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}
