// Package errkind provides the error type podconfig's packages share: an exact message (often
// kubelet's own text) that also matches a category and a cause with errors.Is and errors.As.
package errkind
