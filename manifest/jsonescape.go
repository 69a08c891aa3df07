package manifest

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf16"
)

// yamlEscapes rewrites the two escapes of a valid JSON text that YAML's double-quoted strings
// lack, so that the YAML parser reads it as a JSON decoder would: "\/" becomes "/", and a UTF-16
// surrogate pair "\ud83d\ude00" becomes "\U0001f600" (a surrogate without its pair becomes
// U+FFFD, as encoding/json reads it). Anything else is copied as it is.
func yamlEscapes(js []byte) []byte {
	if !bytes.Contains(js, []byte(`\/`)) && !bytes.Contains(js, []byte(`\ud`)) && !bytes.Contains(js, []byte(`\uD`)) {
		return js
	}
	out := make([]byte, 0, len(js))
	inString := false
	for i := 0; i < len(js); i++ {
		c := js[i]
		switch {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(js):
			switch js[i+1] {
			case '/':
				out = append(out, '/')
				i++
				continue
			case 'u':
				r, ok := hex4(js, i+2)
				if !ok || !utf16.IsSurrogate(r) {
					break
				}
				if low, ok := hex4(js, i+8); ok && js[i+6] == '\\' && js[i+7] == 'u' {
					if pair := utf16.DecodeRune(r, low); pair != '\uFFFD' {
						out = fmt.Appendf(out, `\U%08x`, pair)
						i += 11
						continue
					}
				}
				out = append(out, `\ufffd`...)
				i += 5
				continue
			}
			// another escape: copy the backslash and the character it escapes
			out = append(out, c, js[i+1])
			i++
			continue
		}
		out = append(out, c)
	}
	return out
}

// hex4 reads four hexadecimal digits at js[i:].
func hex4(js []byte, i int) (rune, bool) {
	if i+4 > len(js) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(js[i:i+4]), 16, 32)
	return rune(n), err == nil
}
