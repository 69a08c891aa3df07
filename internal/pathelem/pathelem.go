package pathelem

import (
	"strconv"
	"strings"
)

// Validate returns why name cannot be used as a single host path element, as a message naming
// kind ("container name", "volume name", ...), or "" when it can.
func Validate(kind, name string) string {
	var why string
	switch {
	case name == "":
		why = "must not be empty"
	case name == "." || name == "..":
		why = "must not be '.' or '..'"
	case strings.IndexByte(name, '/') >= 0:
		why = "must not contain '/'"
	case strings.IndexByte(name, 0) >= 0:
		why = "must not contain a NUL byte"
	default:
		return ""
	}
	return "invalid " + kind + " " + strconv.Quote(name) + ": " + why
}
