package manifest

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	yamlv3 "go.yaml.in/yaml/v3"
)

// scalarKind is what a YAML scalar resolves to.
type scalarKind uint8

const (
	kindString scalarKind = iota
	kindNull
	kindBool
	kindInt
	kindUint
	kindFloat
)

// scalar is a resolved YAML scalar.
type scalar struct {
	kind scalarKind
	str  string // kindString
	b    bool
	i    int64
	u    uint64
	f    float64
}

const (
	tagStr       = "!!str"
	tagBinary    = "!!binary"
	tagBool      = "!!bool"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagNull      = "!!null"
	tagTimestamp = "!!timestamp"
	tagMerge     = "!!merge"

	quotedStyles = yamlv3.DoubleQuotedStyle | yamlv3.SingleQuotedStyle | yamlv3.LiteralStyle | yamlv3.FoldedStyle
)

// explicitTag is the tag written on n, in its short form ("!!int"), or "" when none is.
func explicitTag(n *yamlv3.Node) string {
	if n.Style&yamlv3.TaggedStyle == 0 {
		return ""
	}
	if rest, ok := strings.CutPrefix(n.Tag, "tag:yaml.org,2002:"); ok {
		return "!!" + rest
	}
	return n.Tag
}

// isMergeKey reports a "<<" key, which merges mappings into the one that holds it.
func isMergeKey(n *yamlv3.Node) bool {
	if n.Kind != yamlv3.ScalarNode || n.Value != "<<" {
		return false
	}
	if tag := explicitTag(n); tag != "" {
		return tag == tagMerge
	}
	return n.Style&quotedStyles == 0
}

// resolveScalar resolves a scalar as kubectl's YAML decoder (YAML 1.1, go-yaml v2) does: a
// quoted or block scalar is a string; a plain one is null (~, null, empty), a boolean (true, yes,
// on, y and their negations, in three cases), an integer (decimal, 0x, 0o and 0-prefixed octal,
// 0b, with _ separators), a float (including .inf and .nan) or else a string; a timestamp stays
// the string it is written as. An explicit tag (!!str, !!int, !!binary, ...) asks for its type,
// and a value that is not of it is an error; an unknown tag leaves the value a string.
func resolveScalar(n *yamlv3.Node) (scalar, error) {
	tag := explicitTag(n)
	if tag == "" {
		if n.Style&quotedStyles != 0 {
			return scalar{kind: kindString, str: n.Value}, nil
		}
		return resolvePlain(n.Value, true), nil
	}
	switch tag {
	case tagStr:
		return scalar{kind: kindString, str: n.Value}, nil
	case tagBinary:
		data, err := base64.StdEncoding.DecodeString(n.Value)
		if err != nil {
			return scalar{}, fmt.Errorf("line %d: !!binary value contains invalid base64 data", n.Line)
		}
		return scalar{kind: kindString, str: string(data)}, nil
	case tagBool, tagInt, tagFloat, tagNull, tagTimestamp:
	default:
		return scalar{kind: kindString, str: n.Value}, nil
	}
	s := resolvePlain(n.Value, tag == tagTimestamp)
	got := tagOf(s, n.Value, tag == tagTimestamp)
	switch {
	case got == tag:
		return s, nil
	case tag == tagFloat && s.kind == kindInt:
		return scalar{kind: kindFloat, f: float64(s.i)}, nil
	}
	return scalar{}, fmt.Errorf("line %d: cannot decode %s `%s` as a %s", n.Line, got, n.Value, tag)
}

// tagOf is the tag a plain value resolved to.
func tagOf(s scalar, value string, timestamps bool) string {
	switch s.kind {
	case kindNull:
		return tagNull
	case kindBool:
		return tagBool
	case kindInt, kindUint:
		return tagInt
	case kindFloat:
		return tagFloat
	}
	if timestamps && isTimestamp(value) {
		return tagTimestamp
	}
	return tagStr
}

// resolvePlain resolves an untagged plain scalar (or one tagged with a type it may hold).
func resolvePlain(in string, timestamps bool) scalar {
	switch in {
	case "", "~", "null", "Null", "NULL":
		return scalar{kind: kindNull}
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return scalar{kind: kindBool, b: true}
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return scalar{kind: kindBool, b: false}
	case ".nan", ".NaN", ".NAN":
		return scalar{kind: kindFloat, f: math.NaN()}
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return scalar{kind: kindFloat, f: math.Inf(1)}
	case "-.inf", "-.Inf", "-.INF":
		return scalar{kind: kindFloat, f: math.Inf(-1)}
	}
	str := scalar{kind: kindString, str: in}
	switch c := in[0]; {
	case c == '.':
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return scalar{kind: kindFloat, f: f}
		}
		return str
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
	default:
		return str
	}
	if timestamps && isTimestamp(in) {
		return str // a timestamp is decoded as the string it is written as
	}
	plain := strings.ReplaceAll(in, "_", "")
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return scalar{kind: kindInt, i: i}
	}
	if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return scalar{kind: kindUint, u: u}
	}
	if isYAMLFloat(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return scalar{kind: kindFloat, f: f}
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0b"); ok {
		if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
			return scalar{kind: kindInt, i: i}
		}
		if u, err := strconv.ParseUint(rest, 2, 64); err == nil {
			return scalar{kind: kindUint, u: u}
		}
	} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return scalar{kind: kindInt, i: i}
		}
	}
	return str
}

// isYAMLFloat matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, YAML 1.1's floats
// without the sexagesimal form.
func isYAMLFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// timestampLayouts are the forms of YAML 1.1's timestamps that Go's time package parses.
var timestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp reports a YAML 1.1 timestamp (four digits and a dash first).
func isTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' {
		return false
	}
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// keyString is a resolved mapping key as a JSON object key, as kubectl writes YAML's non-string
// keys: integers in decimal, floats in their shortest single-precision form, booleans as true
// and false; a null or an integer past int64 cannot be a key.
func keyString(s scalar, line int) (string, error) {
	switch s.kind {
	case kindString:
		return s.str, nil
	case kindBool:
		return strconv.FormatBool(s.b), nil
	case kindInt:
		return strconv.FormatInt(s.i, 10), nil
	case kindFloat:
		switch f := strconv.FormatFloat(s.f, 'g', -1, 32); f {
		case "+Inf":
			return ".inf", nil
		case "-Inf":
			return "-.inf", nil
		case "NaN":
			return ".nan", nil
		default:
			return f, nil
		}
	case kindNull:
		return "", fmt.Errorf("line %d: a null mapping key has no JSON form", line)
	default:
		return "", fmt.Errorf("line %d: the mapping key %d has no JSON form", line, s.u)
	}
}

// appendScalar appends s as JSON, as encoding/json writes it.
func appendScalar(dst []byte, s scalar, line int) ([]byte, error) {
	switch s.kind {
	case kindNull:
		return append(dst, "null"...), nil
	case kindBool:
		return strconv.AppendBool(dst, s.b), nil
	case kindInt:
		return strconv.AppendInt(dst, s.i, 10), nil
	case kindUint:
		return strconv.AppendUint(dst, s.u, 10), nil
	case kindFloat:
		return appendFloat(dst, s.f, line)
	default:
		return appendString(dst, s.str), nil
	}
}

// appendFloat writes a float as encoding/json does: the shortest form, in exponent notation
// below 1e-6 and from 1e21 on; JSON has no infinity or NaN.
func appendFloat(dst []byte, f float64, line int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("line %d: JSON has no value %v", line, f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-07 is written e-7, as encoding/json writes it
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// appendString writes s as a JSON string; bytes that are not UTF-8 become U+FFFD, as
// encoding/json makes them.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
