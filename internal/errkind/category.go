package errkind

// category is the type of the three categories, so Sentinel can refuse anything else.
type category struct{ msg string }

func (c *category) Error() string { return c.msg }

// The three categories: what a caller does about an error. configgen exports them as
// ErrInvalidPod, ErrInvalidOptions and ErrDependencyFailed.
var (
	// InvalidPod: the spec cannot run as written; retrying the same spec gives the same error.
	InvalidPod error = &category{"invalid pod"}
	// InvalidOptions: the caller's configuration or arguments cannot serve the call; fix them.
	InvalidOptions error = &category{"invalid options"}
	// DependencyFailed: something outside the spec failed (an API object, the node, the host,
	// the runtime); retry with a backoff. It is also the category of an error that carries none.
	DependencyFailed error = &category{"dependency failed"}
)

// sentinel is an exported Err* value of a podconfig package: its text and its category.
type sentinel struct {
	msg string
	cat error
}

func (s *sentinel) Error() string { return s.msg }

// Category returns the category the sentinel was defined with.
func (s *sentinel) Category() error { return s.cat }

// Sentinel returns a sentinel error with text msg in category cat, one of InvalidPod,
// InvalidOptions and DependencyFailed. Every exported Err* of the module is made with it (a test
// checks), so an error's category is decided where the error is defined, not in a list elsewhere.
// Any other cat gives a sentinel with no category of its own.
func Sentinel(cat error, msg string) error {
	if _, ok := cat.(*category); !ok {
		cat = nil
	}
	return &sentinel{msg: msg, cat: cat}
}

// CategoryOf returns the category of err: InvalidOptions if any sentinel or category in err's
// chain is a configuration error, else InvalidPod if any is a spec error, else DependencyFailed.
// A configuration error wins over a spec error, and a spec error over a host error: a subPath set-up
// that failed because the path escaped its volume is the spec's doing. Nil has no category.
func CategoryOf(err error) error {
	if err == nil {
		return nil
	}
	var options, pod bool
	walk(err, func(e error) {
		var c error
		switch k := e.(type) {
		case *category:
			c = k
		case *sentinel:
			if k.cat == nil {
				return
			}
			c = k.cat
		default:
			return
		}
		options = options || c == InvalidOptions
		pod = pod || c == InvalidPod
	})
	switch {
	case options:
		return InvalidOptions
	case pod:
		return InvalidPod
	}
	return DependencyFailed
}

// IsSentinel reports whether err itself (not what it wraps) is a sentinel or a category: a bare
// kind with no detail of its own.
func IsSentinel(err error) bool {
	switch err.(type) {
	case *category, *sentinel:
		return true
	}
	return false
}

// walk calls f on err and on every error beneath it, depth first, as errors.Is visits them.
func walk(err error, f func(error)) {
	for err != nil {
		f(err)
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e, f)
			}
			return
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return
		}
	}
}
