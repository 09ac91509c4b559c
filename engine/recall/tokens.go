package recall

// countFenced is render.CountTokens of a recall's fenced text, from the
// remembered counts of its lines (countLine): a resident process recalls
// the same core lines for every prompt, and counting the whole text again
// was 7% of a served recall at 100k records (BENCHMARKS.md, round five of
// the resident prompt path).
//
// The sum is exact, not an estimate. The text is cut only after a "\n"
// whose next byte is printable ASCII other than a space or "/", and no
// piece of o200k_base's pre-tokenization (o200k.splitPattern) spans such a
// cut: letters and digits never take a "\n"; a run of symbols takes the
// "\n"s and "/"s after it, never that next byte; a whitespace run never
// takes a printable byte. The pattern has no look-behind, so the pieces
// after a cut are the ones the text alone from there gives, and the one
// look-ahead (a whitespace run not followed by a non-space) is never the
// match ending at a cut, since the "\n" alternative before it takes such
// a run first. So the text's tokens are the sum of its parts' tokens.
// TestCountFenced checks it against the tokenizer.
func countFenced(text string) int {
	n, from := 0, 0
	for i := 1; i < len(text); i++ {
		if text[i-1] == '\n' && cuttable(text[i]) {
			n += countLine(text[from:i])
			from = i
		}
	}
	return n + countLine(text[from:])
}

// cuttable reports whether the text may be cut before byte c that follows
// a "\n": printable ASCII, not a space, not "/".
func cuttable(c byte) bool { return c > ' ' && c < 0x7f && c != '/' }
