package conformance

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryDeviationHasACompatibilityRow(t *testing.T) {
	doc, err := os.ReadFile("../docs/compatibility.md")
	require.NoError(t, err)
	var names []string
	for _, d := range Deviations {
		names = append(names, d.Name)
	}
	for _, d := range ValidationDeviations {
		names = append(names, d.Name)
	}
	for _, name := range names {
		assert.Contains(t, string(doc), "| `"+name+"` |", "deviation %s has no row in docs/compatibility.md", name)
	}
}
