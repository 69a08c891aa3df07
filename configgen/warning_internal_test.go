package configgen

// warningReasons returns the warnings' reasons, nil for none.
func warningReasons(ws []Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Reason)
	}
	return out
}
