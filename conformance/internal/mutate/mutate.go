package mutate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Change is one change a Mutator made.
type Change struct {
	// Path is the changed field's JSON path, as the API server prints field paths.
	Path string
	// What says what it became: `= "a_b"`, `= -1`, `duplicated [0]`, `= nil`, ...
	What string
}

func (c Change) String() string { return c.Path + " " + c.What }

// Mutator changes fields of objects at random.
type Mutator struct {
	// Skip, when set, names fields never changed nor entered (a workload's pod template, to
	// change only the workload's own fields).
	Skip func(*field.Path) bool

	r *rand.Rand
}

// typeCache holds what is read from the types once per process: the JSON fields of each struct
// type and the number of leaves under each type, the weight a field is drawn with.
var typeCache = struct {
	sync.Mutex
	fields map[reflect.Type][]jsonField
	leaves map[reflect.Type]int
}{fields: map[reflect.Type][]jsonField{}, leaves: map[reflect.Type]int{}}

// New returns a Mutator drawing from r.
func New(r *rand.Rand) *Mutator {
	return &Mutator{r: r}
}

// maxDepth bounds the descent through the type; the API types are not recursive, this is a guard.
const maxDepth = 20

// Object makes n changes to obj, a pointer to a struct (a *v1.Pod, an *appsv1.Deployment, ...),
// and returns them in the order made. Half the changes pick a field present in obj, so that
// realistic values are changed; the other half pick any field of the type, allocating the
// structs, list entries and map entries on the way.
func (m *Mutator) Object(obj any, n int) []Change {
	root := reflect.ValueOf(obj)
	if root.Kind() != reflect.Pointer || root.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("mutate: %T is not a pointer to a struct", obj))
	}
	var changes []Change
	for range n {
		var c Change
		var ok bool
		if m.r.IntN(2) == 0 {
			c, ok = m.present(root.Elem())
		}
		if !ok {
			c = m.descend(root.Elem(), nil, 0)
		}
		changes = append(changes, c)
	}
	return changes
}

// target is a field present in an object, addressable so that it can be set.
type target struct {
	v    reflect.Value
	path *field.Path
}

// present changes one field that is set in v, drawn uniformly among them; false when none is.
func (m *Mutator) present(v reflect.Value) (Change, bool) {
	var targets []target
	m.collect(v, nil, 0, &targets)
	if len(targets) == 0 {
		return Change{}, false
	}
	t := targets[m.r.IntN(len(targets))]
	if t.v.Kind() == reflect.Slice && !isLeafSlice(t.v.Type()) {
		return m.changeSlice(t.v, t.path), true
	}
	return m.changeLeaf(t.v, t.path), true
}

// collect lists the set leaves under v, and the non-empty lists (whose change is a list change:
// a duplicate entry, no entries).
func (m *Mutator) collect(v reflect.Value, path *field.Path, depth int, out *[]target) {
	if depth > maxDepth || skipType(v.Type()) {
		return
	}
	switch {
	case isLeaf(v.Type()):
		if !v.IsZero() {
			*out = append(*out, target{v, path})
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			m.collect(v.Elem(), path, depth+1, out)
		}
	case reflect.Struct:
		for _, f := range m.fieldsOf(v.Type()) {
			if p := child(path, f.name); !m.skip(p) {
				m.collect(v.FieldByIndex(f.index), p, depth+1, out)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			return
		}
		if !isLeafSlice(v.Type()) {
			*out = append(*out, target{v, path})
		}
		for i := range v.Len() {
			m.collect(v.Index(i), path.Index(i), depth+1, out)
		}
	}
}

// descend walks from v to a leaf of its type drawn with a weight of the leaves under each field,
// allocating what is missing on the way, and changes it.
func (m *Mutator) descend(v reflect.Value, path *field.Path, depth int) Change {
	t := v.Type()
	if isLeaf(t) || depth > maxDepth {
		return m.changeLeaf(v, path)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() && m.r.IntN(20) == 0 {
			v.SetZero()
			return Change{pathString(path), "= nil"}
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return m.descend(v.Elem(), path, depth+1)
	case reflect.Struct:
		var fields []jsonField
		total := 0
		for _, f := range m.fieldsOf(t) {
			if !m.skip(child(path, f.name)) {
				fields = append(fields, f)
				total += m.leafCount(t.FieldByIndex(f.index).Type, 0)
			}
		}
		if total == 0 {
			return Change{pathString(path), "unchanged (no field)"}
		}
		pick := m.r.IntN(total)
		for _, f := range fields {
			w := m.leafCount(t.FieldByIndex(f.index).Type, 0)
			if pick < w {
				return m.descend(v.FieldByIndex(f.index), child(path, f.name), depth+1)
			}
			pick -= w
		}
	case reflect.Slice:
		if m.r.IntN(5) == 0 && v.Len() > 0 {
			return m.changeSlice(v, path)
		}
		i := v.Len()
		if i > 0 && m.r.IntN(10) < 7 {
			i = m.r.IntN(v.Len())
		} else {
			v.Set(reflect.Append(v, reflect.New(t.Elem()).Elem()))
		}
		return m.descend(v.Index(i), path.Index(i), depth+1)
	}
	return m.changeLeaf(v, path)
}

func (m *Mutator) skip(p *field.Path) bool { return m.Skip != nil && m.Skip(p) }

// changeSlice duplicates an entry of a list (a duplicate name, port, path), empties it, or adds an
// empty entry.
func (m *Mutator) changeSlice(v reflect.Value, path *field.Path) Change {
	switch m.r.IntN(4) {
	case 0:
		v.SetZero()
		return Change{pathString(path), "= []"}
	case 1:
		v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
		return Change{pathString(path), fmt.Sprintf("appended an empty [%d]", v.Len()-1)}
	default:
		i := m.r.IntN(v.Len())
		v.Set(reflect.Append(v, deepCopy(v.Index(i))))
		return Change{pathString(path), fmt.Sprintf("duplicated [%d] as [%d]", i, v.Len()-1)}
	}
}

// deepCopy copies a list entry through its DeepCopy method where it has one, so that the copy
// shares no pointer, map or list with the original.
func deepCopy(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		if dc := v.Addr().MethodByName("DeepCopy"); dc.IsValid() {
			return dc.Call(nil)[0].Elem()
		}
	}
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	return out
}

// jsonField is a struct field and its name in JSON.
type jsonField struct {
	name  string
	index []int
}

// fieldsOf returns the fields of a struct type as JSON sees them: inline embedded structs
// flattened, "-" and unexported fields left out, status and TypeMeta left out.
func fieldsOf(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || skipType(f.Type) || (name == "status" && isTopLevelStatus(f.Type)) {
			continue
		}
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) && f.Type.Kind() == reflect.Struct {
			for _, sub := range fieldsOf(f.Type) {
				out = append(out, jsonField{sub.name, append([]int{i}, sub.index...)})
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name, []int{i}})
	}
	return out
}

// fieldsOf is fieldsOf, once per type.
func (m *Mutator) fieldsOf(t reflect.Type) []jsonField {
	typeCache.Lock()
	defer typeCache.Unlock()
	f, ok := typeCache.fields[t]
	if !ok {
		f = fieldsOf(t)
		typeCache.fields[t] = f
	}
	return f
}

// isTopLevelStatus reports whether a field named status holds an object's status (PodStatus,
// DeploymentStatus, ...), which the API server resets on create.
func isTopLevelStatus(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && strings.HasSuffix(t.Name(), "Status")
}

// skipType reports types never changed: TypeMeta, timestamps and raw bytes.
func skipType(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeFor[metav1.TypeMeta](), reflect.TypeFor[metav1.Time](), reflect.TypeFor[metav1.MicroTime](),
		reflect.TypeFor[metav1.FieldsV1]():
		return true
	}
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
}

// isLeaf reports types changed as a whole: scalars, maps, quantities and int-or-strings.
func isLeaf(t reflect.Type) bool {
	switch t {
	case reflect.TypeFor[resource.Quantity](), reflect.TypeFor[intstr.IntOrString]():
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Map:
		return true
	}
	return false
}

// isLeafSlice reports lists of scalars, whose entries are changed as leaves.
func isLeafSlice(t reflect.Type) bool { return isLeaf(t.Elem()) }

// leafCount is the number of leaves reachable in t, each list counting its entry type's once.
func (m *Mutator) leafCount(t reflect.Type, depth int) int {
	typeCache.Lock()
	n, ok := typeCache.leaves[t]
	typeCache.Unlock()
	if ok {
		return n
	}
	if skipType(t) || depth > maxDepth {
		return 0
	}
	n = 0
	switch {
	case isLeaf(t):
		n = 1
	case t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice:
		n = m.leafCount(t.Elem(), depth+1)
	case t.Kind() == reflect.Struct:
		for _, f := range m.fieldsOf(t) {
			n += m.leafCount(t.FieldByIndex(f.index).Type, depth+1)
		}
	}
	typeCache.Lock()
	typeCache.leaves[t] = n
	typeCache.Unlock()
	return n
}

func child(p *field.Path, name string) *field.Path {
	if p == nil {
		return field.NewPath(name)
	}
	return p.Child(name)
}

func pathString(p *field.Path) string {
	if p == nil {
		return "<object>"
	}
	return p.String()
}
