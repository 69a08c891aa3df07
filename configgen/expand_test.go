package configgen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
)

func TestExpandContainerCommandAndArgs(t *testing.T) {
	long := strings.Repeat("l", 200)
	envs := vars("POD_IP", "10.244.1.17", "PORT", "80", "PORT", "8080", "EMPTY", "", "LONG", long)
	tests := []struct {
		name                 string
		command, args        []string
		wantCommand, wantArg []string
	}{
		{
			name:        "references resolve, escapes and undefined names stay",
			args:        []string{"--listen=$(POD_IP):$(PORT)", "$$(LITERAL)", "--undef=$(NOPE)"},
			wantArg:     []string{"--listen=10.244.1.17:8080", "$(LITERAL)", "--undef=$(NOPE)"},
			command:     []string{"/bin/$(NOPE)", "plain"},
			wantCommand: []string{"/bin/$(NOPE)", "plain"},
		},
		{
			name:        "later duplicate wins",
			command:     []string{"$(PORT)"},
			wantCommand: []string{"8080"},
		},
		{
			name:    "empty value expands to empty",
			args:    []string{"[$(EMPTY)]"},
			wantArg: []string{"[]"},
		},
		{
			name:        "a byte after $ that is not UTF-8 becomes U+FFFD, as kubelet decodes it",
			command:     []string{"a$\xffb", "$\xe2\x82$(PORT)"},
			wantCommand: []string{"a$\uFFFDb", "$\uFFFD\x828080"},
		},
		{
			name:        "expansions much longer than their references, between short ones",
			command:     []string{"$(PORT)", "$(LONG)$(LONG)", "-"},
			wantCommand: []string{"8080", long + long, "-"},
			args:        []string{"$(LONG)", "$(POD_IP)", "$(LONG)/$(PORT)"},
			wantArg:     []string{long, "10.244.1.17", long + "/8080"},
		},
		{
			name: "empty command and args give nil",
		},
		{
			name:    "empty but non-nil lists give nil",
			command: []string{},
			args:    []string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			command, args, err := configgen.ExpandContainerCommandAndArgs(&v1.Container{Command: tc.command, Args: tc.args}, envs)
			require.NoError(t, err)
			assert.Equal(t, tc.wantCommand, command)
			assert.Equal(t, tc.wantArg, args)
		})
	}
	t.Run("a nil container gives nil command and args instead of a panic", func(t *testing.T) {
		command, args, err := configgen.ExpandContainerCommandAndArgs(nil, envs)
		require.NoError(t, err)
		assert.Nil(t, command)
		assert.Nil(t, args)
	})
	t.Run("appending to the command does not write into the args", func(t *testing.T) {
		command, args, err := configgen.ExpandContainerCommandAndArgs(&v1.Container{Command: []string{"$(PORT)"}, Args: []string{"a", "b"}}, envs)
		require.NoError(t, err)
		_ = append(command, "x")
		assert.Equal(t, []string{"a", "b"}, args)
	})
	t.Run("the container is not modified", func(t *testing.T) {
		c := &v1.Container{Args: []string{"$(PORT)"}}
		_, args, err := configgen.ExpandContainerCommandAndArgs(c, envs)
		require.NoError(t, err)
		assert.Equal(t, []string{"8080"}, args)
		assert.Equal(t, []string{"$(PORT)"}, c.Args)
	})
}

func TestExpandContainerVolumeMounts(t *testing.T) {
	envs := vars("POD_NAME", "web-0", "NS", "old", "NS", "prod", "EMPTY", "")
	tests := []struct {
		name, expr, want, wantErr string
	}{
		{name: "references resolve", expr: "$(NS)/$(POD_NAME)", want: "prod/web-0"},
		{name: "later duplicate wins", expr: "$(NS)", want: "prod"},
		{name: "no reference", expr: "logs", want: "logs"},
		{name: "empty expression", expr: "", want: ""},
		{name: "$$ escapes", expr: "$$(POD_NAME)", want: "$(POD_NAME)"},
		{name: "a byte after $ that is not UTF-8 becomes U+FFFD", expr: "$\xff/$(POD_NAME)", want: "$\uFFFD/web-0"},
		{name: "undefined variable is an error", expr: "$(NOPE)/x", wantErr: "missing value for NOPE"},
		{name: "empty variable is an error", expr: "$(EMPTY)", wantErr: "missing value for EMPTY"},
		{name: "missing names are sorted and listed once", expr: "$(Z)$(EMPTY)$(A)$(Z)$(POD_NAME)", wantErr: "missing value for A, EMPTY, Z"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := configgen.ExpandContainerVolumeMounts(v1.VolumeMount{Name: "v", SubPathExpr: tc.expr}, envs)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.ErrorIs(t, err, configgen.ErrMissingValue)
				assert.Empty(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
