package configgen

import (
	"strconv"
	"unicode/utf8"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// appendJSONString appends s as encoding/json encodes a string: quoted, with '"', '\\' and control
// characters escaped, '<', '>' and '&' escaped for HTML, invalid UTF-8 replaced by U+FFFD, and
// U+2028 and U+2029 escaped. The container hash and the ports annotation are kubelet's
// json.Marshal output; writing it directly saves the reflection and allocations.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= ' ' && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendPortsJSON appends ports as json.Marshal encodes a []v1.ContainerPort: the fields in
// declaration order, name, hostPort, protocol and hostIP left out when empty.
func appendPortsJSON(dst []byte, ports []v1.ContainerPort) []byte {
	dst = append(dst, '[')
	for i := range ports {
		p := &ports[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		if p.Name != "" {
			dst = append(dst, `"name":`...)
			dst = appendJSONString(dst, p.Name)
			dst = append(dst, ',')
		}
		if p.HostPort != 0 {
			dst = append(dst, `"hostPort":`...)
			dst = strconv.AppendInt(dst, int64(p.HostPort), 10)
			dst = append(dst, ',')
		}
		dst = append(dst, `"containerPort":`...)
		dst = strconv.AppendInt(dst, int64(p.ContainerPort), 10)
		if p.Protocol != "" {
			dst = append(dst, `,"protocol":`...)
			dst = appendJSONString(dst, string(p.Protocol))
		}
		if p.HostIP != "" {
			dst = append(dst, `,"hostIP":`...)
			dst = appendJSONString(dst, p.HostIP)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendLifecycleHandlerJSON appends h as json.Marshal encodes a *v1.LifecycleHandler: the
// fields in declaration order, each left out when omitempty says so. It reports false, leaving
// the caller to use encoding/json, for what it does not write itself: a port whose IntOrString
// type is neither Int nor String, for which encoding/json returns the error kubelet reports.
// TestLifecycleJSONFieldsAreKnown fails when k8s.io/api gives these types a field it lacks.
func appendLifecycleHandlerJSON(dst []byte, h *v1.LifecycleHandler) ([]byte, bool) {
	start := len(dst)
	dst = append(dst, '{')
	if e := h.Exec; e != nil {
		dst = append(dst, `"exec":{`...)
		if len(e.Command) > 0 {
			dst = append(dst, `"command":`...)
			dst = appendJSONStrings(dst, e.Command)
		}
		dst = append(dst, '}')
	}
	if g := h.HTTPGet; g != nil {
		dst = fieldSep(dst, start)
		dst = append(dst, `"httpGet":{`...)
		if g.Path != "" {
			dst = append(dst, `"path":`...)
			dst = appendJSONString(dst, g.Path)
			dst = append(dst, ',')
		}
		dst = append(dst, `"port":`...)
		var ok bool
		if dst, ok = appendIntOrStringJSON(dst, g.Port); !ok {
			return dst[:start], false
		}
		if g.Host != "" {
			dst = append(dst, `,"host":`...)
			dst = appendJSONString(dst, g.Host)
		}
		if g.Scheme != "" {
			dst = append(dst, `,"scheme":`...)
			dst = appendJSONString(dst, string(g.Scheme))
		}
		if len(g.HTTPHeaders) > 0 {
			dst = append(dst, `,"httpHeaders":[`...)
			for i, hd := range g.HTTPHeaders {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, `{"name":`...)
				dst = appendJSONString(dst, hd.Name)
				dst = append(dst, `,"value":`...)
				dst = appendJSONString(dst, hd.Value)
				dst = append(dst, '}')
			}
			dst = append(dst, ']')
		}
		if g.Protocol != nil {
			dst = append(dst, `,"protocol":`...)
			dst = appendJSONString(dst, string(*g.Protocol))
		}
		dst = append(dst, '}')
	}
	if t := h.TCPSocket; t != nil {
		dst = fieldSep(dst, start)
		dst = append(dst, `"tcpSocket":{"port":`...)
		var ok bool
		if dst, ok = appendIntOrStringJSON(dst, t.Port); !ok {
			return dst[:start], false
		}
		if t.Host != "" {
			dst = append(dst, `,"host":`...)
			dst = appendJSONString(dst, t.Host)
		}
		dst = append(dst, '}')
	}
	if s := h.Sleep; s != nil {
		dst = fieldSep(dst, start)
		dst = append(dst, `"sleep":{"seconds":`...)
		dst = strconv.AppendInt(dst, s.Seconds, 10)
		dst = append(dst, '}')
	}
	return append(dst, '}'), true
}

// fieldSep appends the comma before a field of the object that starts at dst[start] unless the
// field is the object's first.
func fieldSep(dst []byte, start int) []byte {
	if len(dst) > start+1 {
		return append(dst, ',')
	}
	return dst
}

// appendJSONStrings appends a non-empty list of strings as a JSON array.
func appendJSONStrings(dst []byte, list []string) []byte {
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

// appendIntOrStringJSON appends v as its MarshalJSON does; false for a type it has no encoding for.
func appendIntOrStringJSON(dst []byte, v intstr.IntOrString) ([]byte, bool) {
	switch v.Type {
	case intstr.Int:
		return strconv.AppendInt(dst, int64(v.IntVal), 10), true
	case intstr.String:
		return appendJSONString(dst, v.StrVal), true
	}
	return dst, false
}
