package render

import (
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// o200k is created on first use: building the codec costs about 20 ms and
// 12 MiB, which a process that never renders core.md should not pay.
var o200k = sync.OnceValue(codec.NewO200kBase)

// CountTokens returns the number of o200k_base tokens in s. The encoding is
// embedded in the binary; nothing is downloaded. It is safe for concurrent
// use.
func CountTokens(s string) int {
	if s == "" {
		return 0
	}
	n, err := o200k().Count(s)
	if err != nil {
		// The codec only fails on a regexp timeout, which is disabled. Every
		// token covers at least one byte, so the byte length is a safe upper
		// bound that can only make a budget check stricter.
		return len(s)
	}
	return n
}
