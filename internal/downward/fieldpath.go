package downward

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// SplitSubscript splits "path['key']" into path and key (kubelet:
// fieldpath.SplitMaybeSubscriptedPath).
func SplitSubscript(fieldPath string) (path, subscript string, ok bool) {
	s, found := strings.CutSuffix(fieldPath, "']")
	if !found {
		return fieldPath, "", false
	}
	path, subscript, found = strings.Cut(s, "['")
	if !found || path == "" {
		return fieldPath, "", false
	}
	return path, subscript, true
}

// PodFieldValue reads a metadata field of the pod, with kubelet's error texts (kubelet:
// fieldpath.ExtractFieldPathAsString). Only metadata.name, namespace, uid, labels and
// annotations, and a subscripted label or annotation, are supported.
func PodFieldValue(pod *v1.Pod, fieldPath string) (string, error) {
	if path, key, ok := SplitSubscript(fieldPath); ok {
		switch path {
		case "metadata.annotations":
			if errs := validation.IsQualifiedName(strings.ToLower(key)); len(errs) != 0 {
				return "", fmt.Errorf("invalid key subscript in %s: %s", fieldPath, strings.Join(errs, ";"))
			}
			return pod.Annotations[key], nil
		case "metadata.labels":
			if errs := validation.IsQualifiedName(key); len(errs) != 0 {
				return "", fmt.Errorf("invalid key subscript in %s: %s", fieldPath, strings.Join(errs, ";"))
			}
			return pod.Labels[key], nil
		}
		return "", fmt.Errorf("fieldPath %q does not support subscript", fieldPath)
	}
	switch fieldPath {
	case "metadata.annotations":
		return FormatMap(pod.Annotations), nil
	case "metadata.labels":
		return FormatMap(pod.Labels), nil
	case "metadata.name":
		return pod.Name, nil
	case "metadata.namespace":
		return pod.Namespace, nil
	case "metadata.uid":
		return string(pod.UID), nil
	}
	return "", errors.New("unsupported fieldPath: " + fieldPath)
}

// FormatMap renders a map as key="quoted value" lines sorted by key, with no trailing newline
// (kubelet: fieldpath.FormatMap).
func FormatMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(m[k]))
	}
	return b.String()
}
