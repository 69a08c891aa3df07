// Package mutate changes a few fields of an API object to values the API server's validation is
// likely to refuse: the field is chosen by reflection over the object's Go type (every string,
// integer, boolean, pointer, slice, map, quantity and int-or-string reachable from it, named by
// its JSON path), and the value from what validation rules test (empty, too long, uppercase,
// spaces, newlines, '_', '/', "..", negative, zero, huge, duplicate list entries, unknown enum
// values), or from combinations of fields that are valid alone and refused together.
//
// A Mutator draws from the *rand.Rand it is given, so a seed replays the same changes.
// TypeMeta, status and timestamps are never changed: the API server sets or ignores them on
// create.
package mutate
