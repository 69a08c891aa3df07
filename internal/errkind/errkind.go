package errkind

// Error is an error whose text is Msg and which unwraps to Kind and, when set, Cause.
type Error struct {
	// Kind is the sentinel, e.g. mounts.ErrInvalidSubPath; its category is the error's.
	Kind error
	// Msg is the whole error text.
	Msg string
	// Cause is the underlying error, if any; its text is not added to Msg.
	Cause error
}

// New returns an *Error.
func New(kind error, msg string, cause error) error {
	return &Error{Kind: kind, Msg: msg, Cause: cause}
}

// Error returns Msg.
func (e *Error) Error() string { return e.Msg }

// Unwrap exposes the category and the cause to errors.Is and errors.As.
func (e *Error) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Cause}
}
