package manifest_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/manifest"
)

// maxAllocRatio is the most Read may allocate, in total, per byte of its input, for any input: it
// is what the YAML parser costs for a dense input (a node of the parser's tree is about 250
// bytes, and "a," makes one); what Read builds from the tree (aliases, merge keys, Lists
// expanded) is bounded much lower, by manifest.MaxExpansion.
const maxAllocRatio = 600

// allocSlack covers what Read allocates whatever the input's size (the parser's buffers, one
// document's bookkeeping).
const allocSlack = 256 << 10

// hostileInput is an input built to make a reader allocate far more than its size.
type hostileInput struct {
	name string
	doc  string
	// refused says Read must refuse it, with an error wrapping ErrTooLarge (else any error,
	// or none, will do).
	refused bool
}

func pad(n int) string { return strings.Repeat("x", n) }

// aliasLevels is a document whose aliases repeat a string of size bytes ten times per level.
func aliasLevels(prefix, suffix string, size, levels int) string {
	var b strings.Builder
	b.WriteString(prefix)
	fmt.Fprintf(&b, "a0: &a0 %q,\n", pad(size))
	for l := 1; l <= levels; l++ {
		fmt.Fprintf(&b, "a%d: &a%d [%s],\n", l, l, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d,", l-1), 10), ","))
	}
	b.WriteString(suffix)
	return b.String()
}

// nestedLists is a List of a List of ... depth levels, a Pod at the bottom.
func nestedLists(depth int, json bool) string {
	pod := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "deep"}, "spec": {"containers": [{"name": "a", "image": "b"}]}}`
	if json {
		return strings.Repeat(`{"apiVersion": "v1", "kind": "List", "items": [`, depth) + pod + strings.Repeat("]}", depth)
	}
	var b strings.Builder
	for i := 0; i < depth; i++ {
		ind := strings.Repeat("  ", i)
		fmt.Fprintf(&b, "%sapiVersion: v1\n%skind: List\n%sitems:\n%s- ", ind, ind, ind, ind)
		if i < depth-1 {
			b.WriteString("\n")
		}
	}
	b.WriteString(pod + "\n")
	return b.String()
}

func hostileInputs() []hostileInput {
	podWith := func(annotations string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: " + annotations + "\nspec: {containers: [{name: a, image: b}]}\n"
	}
	// Merging the same mapping twice is a duplicate key, which strict decoding refuses at
	// once; the header and removed API versions are read leniently.
	mergeBomb := func(head, tail string) string {
		var b strings.Builder
		b.WriteString(head + "\n  m0: &m0 {a: b, c: d}\n")
		for l := 1; l <= 40; l++ {
			fmt.Fprintf(&b, "  m%d: &m%d {<<: [*m%d, *m%d]}\n", l, l, l-1, l-1)
		}
		b.WriteString("  <<: *m40\n" + tail)
		return b.String()
	}
	var listOfAliases strings.Builder
	listOfAliases.WriteString("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c0}, data: &d {k: " + pad(32<<10) + "}}\n")
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&listOfAliases, "- {apiVersion: v1, kind: ConfigMap, metadata: {name: c%d}, data: *d}\n", i)
	}
	var jsonObjects, emptyDocs strings.Builder
	jsonObjects.WriteString(strings.Repeat(`{"kind":"X"}`+"\n", 20000))
	emptyDocs.WriteString(strings.Repeat("---\n", 20000))
	return []hostileInput{
		{"aliases repeat a string ten times per level", aliasLevels("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata: {", "}\n", 64<<10, 3), true},
		// The YAML parser that checked aliases refused the trailing ` ]"`, so the check was
		// skipped, and the one that decoded read the document without it.
		{"aliases in a flow mapping followed by what one parser ignores", aliasLevels("{apiVersion: v1, kind: ConfigMap, metadata: {name: bomb}, data: {", "}} ]\"\n", 8<<10, 3), false},
		{"a List whose items hold aliases of one large mapping", listOfAliases.String(), true},
		{"merge keys that merge the level below twice, forty levels deep, in metadata",
			mergeBomb("apiVersion: v1\nkind: ConfigMap\nmetadata:", ""), true},
		{"merge keys that merge the level below twice, forty levels deep, in a removed version",
			mergeBomb("apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: d}\nspec:", "  template: {spec: {containers: [{name: a, image: b}]}}\n"), true},
		{"an alias of a mapping that holds the alias", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: &d {a: *d}\n", false},
		{"a List whose item is the List itself", "&l {apiVersion: v1, kind: List, items: [*l]}\n", false},
		{"nested Lists in JSON, 400 deep", nestedLists(400, true), false},
		{"nested Lists in YAML, 150 deep", nestedLists(150, false), false},
		{"a dense flow sequence", podWith("{a: \"" + pad(10) + "\"}\nx: [" + strings.Repeat("a,", 32<<10) + "a]"), false},
		{"a dense flow mapping of nulls", podWith("{" + strings.Repeat("a,", 32<<10) + "b}"), false},
		{"flow sequences nested 9000 deep", podWith("{}\nx: " + strings.Repeat("[", 9000) + strings.Repeat("]", 9000)), false},
		{"flow mappings nested 9000 deep", podWith("{}\nx: " + strings.Repeat("{a: ", 9000) + strings.Repeat("}", 9000)), false},
		{"block sequences nested 5000 deep on one line", podWith("{}\nx: \n  " + strings.Repeat("- ", 5000) + "a"), false},
		{"a sequence of 20,000 aliases of one scalar", podWith("{a: &a x}\nx: [" + strings.Repeat("*a,", 20000) + "*a]"), false},
		{"20,000 anchors", podWith("{}\nx: [" + strings.Repeat("&a a,", 20000) + "a]"), false},
		{"30,000 comment lines", strings.Repeat("#\n", 30000) + podWith("{}"), false},
		{"comments between 10,000 items", podWith("{}\nx:\n" + strings.Repeat("# c\n- a\n", 10000)), false},
		{"20,000 empty documents", emptyDocs.String(), false},
		{"20,000 small JSON objects", jsonObjects.String(), false},
	}
}

// allocated is what f allocates, in bytes.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// No input makes Read allocate more than a fixed multiple of its size, whatever its aliases,
// merge keys, nesting or Lists; an input whose expansion passes manifest.MaxExpansion times its
// size is refused.
func TestReadAllocatesAFixedMultipleOfItsInput(t *testing.T) {
	for _, in := range hostileInputs() {
		t.Run(in.name, func(t *testing.T) {
			var err error
			readIt := func() {
				_, err = manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(in.doc)})
			}
			readIt() // the first read of a type fills caches once per process
			n := allocated(readIt)
			ratio := float64(n) / float64(len(in.doc))
			t.Logf("%d bytes in, %d allocated (%.0f×): %v", len(in.doc), n, ratio, err)
			assert.LessOrEqual(t, n, uint64(maxAllocRatio*len(in.doc)+allocSlack), "allocated %.0f times the input", ratio)
			if in.refused {
				assert.ErrorIs(t, err, manifest.ErrTooLarge)
			}
		})
	}
}

// Manifests as users write them are far from the bound.
func TestReadAllocationOfRealManifests(t *testing.T) {
	files, err := filepath.Glob("../cmd/podconfig/testdata/*.yaml")
	require.NoError(t, err)
	var all bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var out error
		readIt := func() {
			_, out = manifest.Read(manifest.Options{Replicas: 1}, manifest.Input{Name: f, Reader: bytes.NewReader(data)})
		}
		readIt()
		n := allocated(readIt)
		require.NoError(t, out)
		t.Logf("%s: %d bytes, %d allocated (%.0f×)", filepath.Base(f), len(data), n, float64(n)/float64(len(data)))
		assert.LessOrEqual(t, n, uint64(maxAllocRatio*len(data)+allocSlack), f)
		all.Write(data)
		all.WriteString("\n---\n")
	}
	data := all.Bytes()
	n := allocated(func() {
		_, err = manifest.Read(manifest.Options{}, manifest.Input{Name: "all", Reader: bytes.NewReader(data)})
	})
	t.Logf("the %d bundled manifests, %d bytes: %d allocated (%.0f×): %v", len(files), len(data), n, float64(n)/float64(len(data)), err)
}

// The budget is for what aliases, merge keys and Lists repeat: an input without them, however
// dense, stays well inside it, even where the reader reads a part twice (metadata, for the
// document's name).
func TestReadDenseInputsWithoutAliasesFitTheBudget(t *testing.T) {
	keys := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "k%d,", i)
		}
		return strings.TrimSuffix(b.String(), ",")
	}
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dense, annotations: {" + keys(20000) + "}}\ndata: {" + keys(20000) + "}\n"
	b, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "in.yaml", Reader: strings.NewReader(doc)})
	require.NoError(t, err)
	require.Len(t, b.ConfigMaps, 1)
	assert.Len(t, b.ConfigMaps[0].Data, 20000)
	assert.Len(t, b.ConfigMaps[0].Annotations, 20000)
}
