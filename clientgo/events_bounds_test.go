package clientgo_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/clientgo"
	"github.com/podconfig/podconfig/configgen"
)

// TestRecorderBounds holds what one Recorder call records to the events API's limits: a message
// (the events.k8s.io note) of at most 1024 bytes, cut at a character boundary and marked, a
// reason of at most 128, and at most MaxEventsPerCall events from one Warnings call, the last
// of which counts the warnings left out. A pod whose spec makes 10,000 warnings of 1 MiB each
// used to record them all, 10 GiB of event messages.
func TestRecorderBounds(t *testing.T) {
	pod := eventPod()
	huge := strings.Repeat("é", 1<<19) // 1 MiB of two-byte characters
	checkEvents := func(t *testing.T, c *capture) {
		t.Helper()
		for i, text := range c.texts {
			assert.LessOrEqual(t, len(text), clientgo.MaxMessageBytes, "event %d's message", i)
			assert.True(t, utf8.ValidString(text), "event %d's message was cut inside a character", i)
			assert.LessOrEqual(t, len(c.reasons[i]), clientgo.MaxReasonBytes, "event %d's reason", i)
		}
	}

	t.Run("Warnings records at most MaxEventsPerCall events, the last counting the rest", func(t *testing.T) {
		ws := make([]configgen.Warning, 10000)
		for i := range ws {
			ws[i] = configgen.Warning{Reason: configgen.ReasonOptionalConfigMapNotFound, Message: huge, Container: "cart"}
		}
		ws[0].Message = "0" + huge
		c := &capture{}
		clientgo.Recorder{Events: c}.Warnings(pod, ws)
		require.Len(t, c.texts, clientgo.MaxEventsPerCall)
		checkEvents(t, c)
		last := len(c.texts) - 1
		assert.True(t, strings.HasPrefix(c.texts[0], "0é"), "the first warning comes first")
		assert.Equal(t, configgen.ReasonOptionalConfigMapNotFound, c.reasons[last])
		assert.Equal(t, fmt.Sprintf("%d more warnings were not recorded as events", 10000-clientgo.MaxEventsPerCall+1), c.texts[last])
		assert.Equal(t, "spec.containers{cart}", c.refs[last].FieldPath)
	})
	t.Run("exactly MaxEventsPerCall warnings are all recorded", func(t *testing.T) {
		ws := make([]configgen.Warning, clientgo.MaxEventsPerCall)
		for i := range ws {
			ws[i] = configgen.Warning{Reason: "R", Message: fmt.Sprint(i)}
		}
		c := &capture{}
		clientgo.Recorder{Events: c}.Warnings(pod, ws)
		require.Len(t, c.texts, clientgo.MaxEventsPerCall)
		assert.Equal(t, fmt.Sprint(clientgo.MaxEventsPerCall-1), c.texts[clientgo.MaxEventsPerCall-1])
	})
	t.Run("a long warning message is cut and marked", func(t *testing.T) {
		c := &capture{}
		clientgo.Recorder{Events: c}.OnWarning(pod, nil, configgen.Warning{Reason: strings.Repeat("R", 1000), Message: huge})
		require.Len(t, c.texts, 1)
		checkEvents(t, c)
		assert.True(t, strings.HasSuffix(c.texts[0], "..."), "%q", c.texts[0][len(c.texts[0])-10:])
		assert.Greater(t, len(c.texts[0]), clientgo.MaxMessageBytes-8, "cut much shorter than the bound")
	})
	t.Run("a long error is cut", func(t *testing.T) {
		c := &capture{}
		clientgo.Recorder{Events: c}.Error(pod, &configgen.Error{Reason: configgen.ReasonCreateContainerConfigError, Container: "cart", Err: errors.New(huge)})
		require.Len(t, c.texts, 1)
		checkEvents(t, c)
		assert.True(t, strings.HasPrefix(c.texts[0], "Error: éé"))
	})
	t.Run("a message at the bound is kept whole", func(t *testing.T) {
		msg := strings.Repeat("x", clientgo.MaxMessageBytes)
		c := &capture{}
		clientgo.Recorder{Events: c}.OnWarning(pod, nil, configgen.Warning{Reason: "R", Message: msg})
		assert.Equal(t, []string{msg}, c.texts)
	})
	t.Run("a zero Recorder or a nil pod records nothing and does not panic", func(t *testing.T) {
		w := configgen.Warning{Reason: "R", Message: "m"}
		assert.NotPanics(t, func() {
			clientgo.Recorder{}.OnWarning(pod, nil, w)
			clientgo.Recorder{}.Warnings(pod, []configgen.Warning{w})
			clientgo.Recorder{}.Error(pod, errors.New("x"))
		})
		c := &capture{}
		clientgo.Recorder{Events: c}.Warnings(nil, []configgen.Warning{w})
		clientgo.Recorder{Events: c}.Error(nil, errors.New("x"))
		assert.Empty(t, c.texts)
	})
}
