package resourcelist

import v1 "k8s.io/api/core/v1"

// Add adds each quantity of add to list; a resource list lacks gets a copy of add's.
func Add(list, add v1.ResourceList) {
	for name, q := range add {
		if cur, ok := list[name]; ok {
			cur.Add(q)
			list[name] = cur
		} else {
			list[name] = q.DeepCopy()
		}
	}
}

// Max raises each quantity of list to other's where other's is larger or list has none.
func Max(list, other v1.ResourceList) {
	for name, q := range other {
		if cur, ok := list[name]; !ok || q.Cmp(cur) > 0 {
			list[name] = q.DeepCopy()
		}
	}
}
