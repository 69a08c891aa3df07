package manifest

import (
	"bytes"
	"fmt"

	yamlv3 "go.yaml.in/yaml/v3"
)

// checkAliasExpansion refuses a document whose YAML aliases would make it larger than
// MaxInputSize once expanded. The YAML decoder limits the share of aliases among the nodes it
// decodes, but not below 100 aliases: three levels of ten aliases repeat a string a thousand
// times. The document is parsed into nodes, which holds no expansion, and the expanded size is
// summed with one memo per anchored node, so the check costs what parsing costs.
func checkAliasExpansion(doc []byte) error {
	if bytes.IndexByte(doc, '*') < 0 {
		return nil // no alias
	}
	var root yamlv3.Node
	if err := yamlv3.Unmarshal(doc, &root); err != nil {
		return nil // the decoder reports the syntax error, with its own alias limits
	}
	memo := map[*yamlv3.Node]int64{}
	if expandedSize(&root, memo, 0) > MaxInputSize {
		return fmt.Errorf("YAML aliases expand the document to more than 64 MiB (%w)", ErrTooLarge)
	}
	return nil
}

// expandedSize is about how many bytes n takes once its aliases are replaced by what they name:
// scalars count their value, collections their children, and every node a few bytes of syntax.
// It stops growing past MaxInputSize, and a node reached again through an alias of itself (a
// cycle, which the decoder refuses) counts as past it.
func expandedSize(n *yamlv3.Node, memo map[*yamlv3.Node]int64, depth int) int64 {
	const over = MaxInputSize + 1
	if n == nil {
		return 0
	}
	if size, ok := memo[n]; ok {
		return size
	}
	if depth > 10000 {
		return over
	}
	memo[n] = over // a cycle through this node is too large
	var size int64 = 4
	switch n.Kind {
	case yamlv3.AliasNode:
		size += expandedSize(n.Alias, memo, depth+1)
	case yamlv3.ScalarNode:
		size += int64(len(n.Value))
	default:
		for _, c := range n.Content {
			size += expandedSize(c, memo, depth+1)
			if size > MaxInputSize {
				size = over
				break
			}
		}
	}
	if size > MaxInputSize {
		size = over
	}
	memo[n] = size
	return size
}
