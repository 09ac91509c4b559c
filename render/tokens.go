package render

import "scriptorium/render/o200k"

// CountTokens returns the number of o200k_base tokens in s. The encoding is
// embedded in the binary as a ready hash table (render/o200k): nothing is
// downloaded, and nothing is built at the first count (building tiktoken-go's
// map was 35 ms of every cold recall). It is safe for concurrent use.
func CountTokens(s string) int {
	if s == "" {
		return 0
	}
	n, ok := o200k.Count(s)
	if !ok {
		// The splitter only fails on a regexp timeout, which is disabled.
		// Every token covers at least one byte, so the byte length is a safe
		// upper bound that can only make a budget check stricter.
		return len(s)
	}
	return n
}
