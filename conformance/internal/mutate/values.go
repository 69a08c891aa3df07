package mutate

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strings that break a rule of some field: names, paths, keys, enum values, numbers as text.
var badStrings = []string{
	"", " ", "UPPER", "with space", "a\nb", "tab\there", "a_b", "a/b", "..", "../etc", "a/../b", "/abs/path",
	"-lead", "trail-", "a.b", ".hidden", "*", "a=b", "é", "x:y", "0", "-1", "1.5", "a,b", "$(VAR)", "null",
	"a\x00b", "1.2.3.4", "::1", "300.1.1.1", "localhost", "~",
}

// Values of the API's enumerations, given to every string field: an enumeration takes another
// one's value (an unknown value), or a valid value in a combination it is refused in.
var enumStrings = []string{
	"Always", "Never", "OnFailure", "IfNotPresent", "TCP", "UDP", "SCTP", "ClusterFirst", "ClusterFirstWithHostNet",
	"Default", "None", "RuntimeDefault", "Localhost", "Unconfined", "Exists", "Equal", "NoSchedule",
	"PreferNoSchedule", "NoExecute", "In", "NotIn", "DoesNotExist", "Gt", "Lt", "DoNotSchedule", "ScheduleAnyway",
	"Honor", "Ignore", "Bidirectional", "HostToContainer", "File", "FallbackToLogsOnError", "Directory",
	"DirectoryOrCreate", "FileOrCreate", "Socket", "CharDevice", "BlockDevice", "linux", "windows", "Unmasked",
	"Recursive", "IfPossible", "Enabled", "Disabled", "NotRequired", "RestartContainer", "OnRootMismatch",
	"Memory", "HugePages", "HugePages-2Mi", "PreemptLowerPriority", "Merge", "Replace", "Strict", "OrderedReady",
	"Parallel", "RollingUpdate", "Recreate", "OnDelete", "Indexed", "NonIndexed", "Forbid", "Allow",
	"TCPSocket", "HTTP", "HTTPS", "cpu", "memory", "default", "kube-system", "system-node-critical",
	"limits.cpu", "requests.memory", "metadata.name", "metadata.labels['x']", "spec.nodeName", "status.podIP",
	"v1", "apps/v1", "Pod", "ReadWriteOnce", "Filesystem", "Block", "ext4", "ReadOnly", "ReadWrite",
	"FailIndex", "FailJob", "Count", "Recursive", "Retain", "Delete", "* * * * *", "@hourly", "UTC",
	"Etc/Unknown",
}

var badInts = []int64{-1, 0, 1, 2, 3, 7, 30, 255, 511, 512, 0o777, 0o1000, 65535, 65536, 100000,
	math.MaxInt32, math.MinInt32, 1 << 31, -1 << 40, math.MaxInt64, math.MinInt64}

var badQuantities = []string{"-1", "0", "1", "100m", "0.5", "1m", "1.5Gi", "1Ei", "-100Mi", "9223372036854775807",
	"1e3", "3.5", "1Ki", "1k", "0.001", "2Mi"}

var badIntOrStrings = []intstr.IntOrString{
	intstr.FromInt32(-1), intstr.FromInt32(0), intstr.FromInt32(1), intstr.FromInt32(65535), intstr.FromInt32(65536),
	intstr.FromString(""), intstr.FromString("http"), intstr.FromString("HTTP"), intstr.FromString("a_b"),
	intstr.FromString("8080"), intstr.FromString("port-name-too-long"), intstr.FromString("25%"),
	intstr.FromString("-5%"), intstr.FromString("110%"), intstr.FromString("abc%"), intstr.FromString("0%"),
}

// Map keys that break a rule of labels, annotations, selectors or resource names, and keys the
// API server gives a meaning to.
var badKeys = []string{
	"", "a", "UPPER", "a b", "a_b", "-a", "a-", "example.com/x", "Example.COM/x", "/x", "x/", "a/b/c",
	"kubernetes.io/x", "a\nb", ".a", "é",
	"seccomp.security.alpha.kubernetes.io/pod", "container.seccomp.security.alpha.kubernetes.io/c0",
	"container.apparmor.security.beta.kubernetes.io/c0", "container.apparmor.security.beta.kubernetes.io/nope",
	"kubernetes.io/config.mirror", "controller.kubernetes.io/pod-deletion-cost", "kubernetes.io/psp",
	"cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "hugepages-1Gi", "hugepages-", "hugepages-3Mi",
	"nvidia.com/gpu", "example.com/dev", "foo", "requests.cpu", "storage", "pods", "kubernetes.io/dev",
}

// Map values the API server gives a meaning to.
var badValues = []string{"runtime/default", "docker/default", "localhost/profile.json", "localhost/", "unconfined",
	"localhost/../x", "abc", "1", "-1", "1.5"}

// lengths are the lengths around the API's limits a string is stretched to.
var lengths = []int{63, 64, 253, 254, 255, 256, 4096, 262145}

// changeLeaf sets a leaf to a value likely refused.
func (m *Mutator) changeLeaf(v reflect.Value, path *field.Path) Change {
	p := pathString(path)
	switch v.Type() {
	case reflect.TypeFor[resource.Quantity]():
		q := resource.MustParse(pick(m, badQuantities))
		v.Set(reflect.ValueOf(q))
		return Change{p, "= " + q.String()}
	case reflect.TypeFor[intstr.IntOrString]():
		ios := pick(m, badIntOrStrings)
		v.Set(reflect.ValueOf(ios))
		return Change{p, fmt.Sprintf("= %q", ios.String())}
	}
	switch v.Kind() {
	case reflect.String:
		s := m.badString(v.String())
		v.SetString(s)
		return Change{p, "= " + quote(s)}
	case reflect.Bool:
		v.SetBool(!v.Bool())
		return Change{p, fmt.Sprintf("= %v", v.Bool())}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := m.badInt(v.Int())
		for v.OverflowInt(n) {
			n = m.badInt(v.Int())
		}
		v.SetInt(n)
		return Change{p, fmt.Sprintf("= %d", n)}
	case reflect.Map:
		return m.changeMap(v, path)
	case reflect.Slice:
		return m.changeSlice(v, path)
	}
	return Change{p, "unchanged (" + v.Type().String() + ")"}
}

// badString draws a string: a fixed bad one, an enumeration value, or the current value made
// longer, uppercase, or given a character it may not hold.
func (m *Mutator) badString(cur string) string {
	switch m.r.IntN(3) {
	case 0:
		return pick(m, badStrings)
	case 1:
		return pick(m, enumStrings)
	}
	base := cur
	if base == "" {
		base = "a"
	}
	switch m.r.IntN(8) {
	case 0:
		n := pick(m, lengths)
		return (strings.Repeat(base, n/len(base)+1))[:n]
	case 1:
		return strings.ToUpper(base)
	case 2:
		return base + "_"
	case 3:
		return "/" + base
	case 4:
		return base + "/.."
	case 5:
		return " " + base
	case 6:
		return base + "\n"
	}
	return base + "." + base
}

func (m *Mutator) badInt(cur int64) int64 {
	switch m.r.IntN(5) {
	case 0:
		return cur + 1
	case 1:
		return cur - 1
	case 2:
		return -cur
	}
	return pick(m, badInts)
}

// changeMap sets a map entry: a bad key with a value of its type, or an existing key's value
// changed.
func (m *Mutator) changeMap(v reflect.Value, path *field.Path) Change {
	t := v.Type()
	if v.IsNil() {
		v.Set(reflect.MakeMap(t))
	}
	var key reflect.Value
	if keys := v.MapKeys(); len(keys) > 0 && m.r.IntN(3) == 0 {
		key = keys[m.r.IntN(len(keys))]
	} else {
		key = reflect.New(t.Key()).Elem()
		if key.Kind() != reflect.String {
			return Change{pathString(path), "unchanged (" + t.String() + ")"}
		}
		k := pick(m, badKeys)
		if m.r.IntN(4) == 0 {
			k = m.badString("key")
		}
		key.SetString(k)
	}
	val := reflect.New(t.Elem()).Elem()
	if old := v.MapIndex(key); old.IsValid() {
		val.Set(old)
	}
	what := ""
	if val.Kind() == reflect.String && m.r.IntN(2) == 0 {
		s := pick(m, badValues)
		val.SetString(s)
		what = quote(s)
	} else {
		what = strings.TrimPrefix(m.changeLeaf(val, nil).What, "= ")
	}
	v.SetMapIndex(key, val)
	return Change{pathString(path) + "[" + quote(key.String()) + "]", "= " + what}
}

func pick[T any](m *Mutator, s []T) T { return s[m.r.IntN(len(s))] }

// quote quotes a string, and shortens a long one for reading.
func quote(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%q... (%d bytes)", s[:20], len(s))
	}
	return fmt.Sprintf("%q", s)
}
