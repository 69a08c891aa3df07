// Package errkind provides the error machinery podconfig's packages share: the three categories
// that tell a caller what to do about an error, sentinels that carry their category from where
// they are defined, and an error type with an exact message (often kubelet's own text) that also
// matches a sentinel and a cause with errors.Is and errors.As.
package errkind
