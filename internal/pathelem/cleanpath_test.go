package pathelem

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSlashDotOrSlash(t *testing.T) {
	tests := []struct {
		name, input string
		want        bool
	}{
		{"empty", "", false},
		{"a clean absolute path", "/var/lib/kubelet/pods/3f0d6b8e-5a8c-4d7e/volumes/kubernetes.io~csi/data/mount", false},
		{"a clean relative path", "a/b.c/d..e", false},
		{"a double slash in the first word", "/a//b", true},
		{"a slash-dot in a later word", "/var/lib/kubelet/./x", true},
		{"a pair across a word boundary", "/abcdef//x", true},
		{"a slash ending a word, a dot starting the next", "/abcdef/.x", true},
		{"a pair in the tail", "/abcdefgh/.", true},
		{"a dot file", "/vol/.config", true},
		{"dots not after a slash", "a.b/c..d/e...", false},
		{"a leading dot alone is not a pair", "./a", false},
		{"a trailing slash alone is not a pair", "a/b/", false},
		{"non-ASCII bytes", "/völ/ü\xff/x", false},
		{"a slash before non-ASCII then a pair", "/ü/\x80//", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SlashDotOrSlash(tt.input); got != tt.want {
				t.Fatalf("SlashDotOrSlash(%q) = %v, want %v", tt.input, got, tt.want)
			}
		})
	}
}

// FuzzSlashDotOrSlash checks the word-at-a-time scan against the plain search.
func FuzzSlashDotOrSlash(f *testing.F) {
	for _, seed := range []string{"", "/a//b", "/abcdef//x", "/abcdef/.x", "a.b/c", "1234567/", "12345678/.", "/\xff\x2f\x2e"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		want := strings.Contains(p, "//") || strings.Contains(p, "/.")
		if got := SlashDotOrSlash(p); got != want {
			t.Fatalf("SlashDotOrSlash(%q) = %v, strings.Contains says %v", p, got, want)
		}
	})
}

func TestIsPlain(t *testing.T) {
	tests := []struct {
		name, input string
		want        bool
	}{
		{"the root", "/", true},
		{"empty", "", false},
		{"a clean absolute path", "/var/lib/kubelet/pods/3f0d/volumes", true},
		{"a clean relative path", "a/b.c/d..e", true},
		{"a dot file", "/vol/.config", true},
		{"a dot file first", ".config/x", true},
		{"a trailing slash", "/a/b/", false},
		{"a double slash", "/a//b", false},
		{"a dot element", "/a/./b", false},
		{"a trailing dot", "/a/.", false},
		{"a dot-dot element", "/a/../b", false},
		{"a leading dot-dot, clean but not plain", "../a", false},
		{"a lone dot", ".", false},
		{"a double slash at the start", "//a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsPlain(tt.input); got != tt.want {
				t.Fatalf("IsPlain(%q) = %v, want %v", tt.input, got, tt.want)
			}
		})
	}
}

// FuzzIsPlain holds IsPlain to filepath.Clean: a plain path is clean, and a clean, non-empty
// path is plain unless it starts with "..".
func FuzzIsPlain(f *testing.F) {
	for _, seed := range []string{"", "/", "/a//b", "a/./b", "../a", "/abcdefgh/.x", "/vol/.cfg", "a/b/"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		clean := filepath.Clean(p) == p
		got := IsPlain(p)
		if got && !clean {
			t.Fatalf("IsPlain(%q) = true, but filepath.Clean gives %q", p, filepath.Clean(p))
		}
		dotdot := p == ".." || strings.HasPrefix(p, "../")
		if !got && clean && p != "." && !dotdot {
			t.Fatalf("IsPlain(%q) = false for a clean path", p)
		}
	})
}
