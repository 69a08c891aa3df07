package configgen

import (
	"strconv"
	"unicode/utf8"

	v1 "k8s.io/api/core/v1"
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
