package manifest

import (
	"errors"
	"fmt"
	"strconv"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/podconfig/podconfig/internal/errkind"
)

// MaxExpansion bounds what Read builds from one input: the JSON of its documents, with every
// alias, merge key and List item counted each time it is used, is at most MaxExpansion times the
// input's size (plus 64 KiB, so that small inputs may use aliases freely). Written out, YAML
// without aliases takes at most about five times its size in JSON.
const MaxExpansion = 16

// expansionFloor is what any input may build, whatever its size.
const expansionFloor = 64 << 10

// maxDepth is how deep documents nest, aliases and Lists followed, as encoding/json and the
// YAML parser limit it.
const maxDepth = 10000

// ErrExpansion: an input's YAML aliases, merge keys or Lists would make Read build more than
// MaxExpansion times its size. errors.Is(err, ErrTooLarge) holds for it too.
var ErrExpansion = errkind.Sentinel(errkind.InvalidPod, "its YAML aliases, merge keys and Lists build more than 16 times the input's size")

// errExpansion is the error Read returns: ErrExpansion's text, matching ErrTooLarge too.
var errExpansion = errkind.New(ErrExpansion, ErrExpansion.Error(), ErrTooLarge)

// Costs, in bytes of the budget, of work that writes no JSON.
const (
	pairCost  = 8 // a key and value visited, also when a merge key brings it
	aliasCost = 8 // an alias followed
	itemCost  = 8 // a List item visited
)

// builder turns the YAML trees of one input into JSON, spending a budget that is a fixed
// multiple of the input's size: every byte it writes and every node it visits is paid for,
// however often aliases make it visit the same node, so what it builds is bounded by what it
// reads, not by what the tree says it holds.
type builder struct {
	left  int64
	depth int
	// following are the anchored nodes being expanded through an alias; one met again holds
	// itself.
	following map[*yamlv3.Node]bool
	// scratch is where a document's JSON is built, reused from one document to the next.
	scratch []byte
}

func newBuilder(inputSize int) *builder {
	return &builder{left: MaxExpansion*int64(inputSize) + expansionFloor}
}

func (b *builder) spend(n int) error {
	b.left -= int64(n)
	if b.left < 0 {
		return errExpansion
	}
	return nil
}

// enter goes one level deeper into a document.
func (b *builder) enter() error {
	b.depth++
	if b.depth > maxDepth {
		return fmt.Errorf("nested more than %d levels deep", maxDepth)
	}
	return nil
}

func (b *builder) leave() { b.depth-- }

// follow returns the node an alias names, marked as being expanded until unfollow; any other
// node is returned as it is.
func (b *builder) follow(n *yamlv3.Node) (*yamlv3.Node, error) {
	if n.Kind != yamlv3.AliasNode {
		return n, nil
	}
	if err := b.spend(aliasCost); err != nil {
		return nil, err
	}
	target := n.Alias
	if target == nil {
		return nil, fmt.Errorf("line %d: unknown anchor %q", n.Line, n.Value)
	}
	if b.following[target] {
		return nil, fmt.Errorf("line %d: anchor %q holds an alias of itself", n.Line, n.Value)
	}
	if b.following == nil {
		b.following = map[*yamlv3.Node]bool{}
	}
	b.following[target] = true
	return target, nil
}

// unfollow ends the expansion follow started for n.
func (b *builder) unfollow(n *yamlv3.Node) {
	if n.Kind == yamlv3.AliasNode {
		delete(b.following, n.Alias)
	}
}

// pair is one key of a mapping and its value, merge keys applied.
type pair struct {
	key   string
	value *yamlv3.Node
	line  int
}

// mapping is a mapping's pairs, in order, each key once.
type mapping struct {
	pairs []pair
	index map[string]int // key to position in pairs, once there are many
	// duplicate is the first key given twice (directly or through merge keys), if any;
	// duplicateLine is where its second value is.
	hasDuplicate  bool
	duplicate     string
	duplicateLine int
}

const indexFrom = 8

func (m *mapping) find(key string) int {
	if m.index != nil {
		if i, ok := m.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range m.pairs {
		if m.pairs[i].key == key {
			return i
		}
	}
	return -1
}

// set adds a pair; a key given again takes the new value, as kubectl's lenient decoding does,
// and is remembered as a duplicate, which strict decoding refuses.
func (m *mapping) set(p pair) {
	if i := m.find(p.key); i >= 0 {
		if !m.hasDuplicate {
			m.hasDuplicate, m.duplicate, m.duplicateLine = true, p.key, p.line
		}
		m.pairs[i].value, m.pairs[i].line = p.value, p.line
		return
	}
	m.pairs = append(m.pairs, p)
	switch {
	case m.index != nil:
		m.index[p.key] = len(m.pairs) - 1
	case len(m.pairs) > indexFrom:
		m.index = make(map[string]int, 2*len(m.pairs))
		for i, q := range m.pairs {
			m.index[q.key] = i
		}
	}
}

// get is the value of key, or nil.
func (m *mapping) get(key string) *yamlv3.Node {
	if i := m.find(key); i >= 0 {
		return m.pairs[i].value
	}
	return nil
}

// duplicateError is strict decoding's error for a key given twice.
func (m *mapping) duplicateError() error {
	if !m.hasDuplicate {
		return nil
	}
	return fmt.Errorf("yaml: line %d: key %s already set in map", m.duplicateLine, strconv.Quote(m.duplicate))
}

// mappingOf collects the pairs of a mapping node, with its merge keys ("<<: *base") applied as
// kubectl's decoder applies them: the pairs of the merged mapping, or of each mapping of a
// merged sequence, the later ones first, take their place in order.
func (b *builder) mappingOf(n *yamlv3.Node) (*mapping, error) {
	m := &mapping{}
	if err := b.collect(n, m); err != nil {
		return nil, err
	}
	return m, nil
}

func (b *builder) collect(n *yamlv3.Node, m *mapping) error {
	if err := b.enter(); err != nil {
		return err
	}
	defer b.leave()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if err := b.spend(pairCost); err != nil {
			return err
		}
		if isMergeKey(k) {
			if err := b.merge(v, m); err != nil {
				return err
			}
			continue
		}
		key, err := b.key(k)
		if err != nil {
			return err
		}
		m.set(pair{key: key, value: v, line: v.Line})
	}
	return nil
}

var errMergeWant = errors.New("map merge requires map or sequence of maps as the value")

func (b *builder) merge(v *yamlv3.Node, m *mapping) error {
	if v.Kind == yamlv3.SequenceNode {
		if err := b.enter(); err != nil {
			return err
		}
		defer b.leave()
		for i := len(v.Content) - 1; i >= 0; i-- {
			if err := b.mergeOne(v.Content[i], m); err != nil {
				return err
			}
		}
		return nil
	}
	return b.mergeOne(v, m)
}

func (b *builder) mergeOne(v *yamlv3.Node, m *mapping) error {
	target, err := b.follow(v)
	if err != nil {
		return err
	}
	defer b.unfollow(v)
	if target.Kind != yamlv3.MappingNode {
		return fmt.Errorf("line %d: %w", v.Line, errMergeWant)
	}
	return b.collect(target, m)
}

// key is the JSON key of a mapping key node.
func (b *builder) key(k *yamlv3.Node) (string, error) {
	target, err := b.follow(k)
	if err != nil {
		return "", err
	}
	defer b.unfollow(k)
	if target.Kind != yamlv3.ScalarNode {
		return "", fmt.Errorf("line %d: a mapping key must be a scalar", k.Line)
	}
	s, err := resolveScalar(target)
	if err != nil {
		return "", err
	}
	key, err := keyString(s, k.Line)
	if err != nil {
		return "", err
	}
	return key, b.spend(len(key) + 4)
}

// appendJSON appends the JSON of n; strict refuses duplicate keys.
func (b *builder) appendJSON(dst []byte, n *yamlv3.Node, strict bool) ([]byte, error) {
	target, err := b.follow(n)
	if err != nil {
		return nil, err
	}
	defer b.unfollow(n)
	switch target.Kind {
	case yamlv3.ScalarNode:
		s, err := resolveScalar(target)
		if err != nil {
			return nil, err
		}
		start := len(dst)
		if dst, err = appendScalar(dst, s, target.Line); err != nil {
			return nil, err
		}
		return dst, b.spend(len(dst) - start)
	case yamlv3.SequenceNode:
		if err := b.enter(); err != nil {
			return nil, err
		}
		defer b.leave()
		dst = append(dst, '[')
		for i, c := range target.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = b.appendJSON(dst, c, strict); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), b.spend(len(target.Content) + 2)
	case yamlv3.MappingNode:
		m, err := b.mappingOf(target)
		if err != nil {
			return nil, err
		}
		return b.appendMapping(dst, m, strict)
	case yamlv3.DocumentNode:
		if len(target.Content) == 0 {
			return append(dst, "null"...), nil
		}
		return b.appendJSON(dst, target.Content[0], strict)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", target.Line)
}

// appendMapping appends the JSON object of collected pairs.
func (b *builder) appendMapping(dst []byte, m *mapping, strict bool) ([]byte, error) {
	if strict {
		if err := m.duplicateError(); err != nil {
			return nil, err
		}
	}
	if err := b.enter(); err != nil {
		return nil, err
	}
	defer b.leave()
	dst = append(dst, '{')
	for i, p := range m.pairs {
		if i > 0 {
			dst = append(dst, ',')
		}
		start := len(dst)
		dst = appendString(dst, p.key)
		dst = append(dst, ':')
		if err := b.spend(len(dst) - start); err != nil {
			return nil, err
		}
		var err error
		if dst, err = b.appendJSON(dst, p.value, strict); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), b.spend(len(m.pairs) + 2)
}
