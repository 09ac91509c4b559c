package result

// CoreExplanation says why a block is in core.md or left out.
type CoreExplanation struct {
	ID   string `json:"id"`
	Path string `json:"path"` // the topic file that holds the block
	// Position is the block's 1-based place among the blocks of
	// topics/core.md; 0 when the block lives elsewhere.
	Position int `json:"position"`
	Blocks   int `json:"blocks"` // blocks in topics/core.md
	// State is "included", "excluded" (the budget), "pending" (untrusted,
	// never rendered) or "not_in_core" (the block lives in another file).
	State  string `json:"state"`
	Pinned bool   `json:"pinned"`
	Tokens int    `json:"tokens"` // the block alone with its footnotes
	// RunningTotal is core.md's tokens with every block up to this one; 0
	// when the render never reached it.
	RunningTotal int            `json:"running_total"`
	Budget       int            `json:"budget"`
	CoreTokens   int            `json:"core_tokens"` // the whole render
	Trust        string         `json:"trust"`
	Reason       string         `json:"reason"`
	Sources      []CitationView `json:"sources"`
}

// CoreMove is one reorder of topics/core.md.
type CoreMove struct {
	// Exactly one of these: Delta moves by places (-1 up, +1 down), To to
	// a 1-based position among the blocks, Top to the first unpinned place,
	// Pin into the pinned section (kept first), Unpin out of it.
	Delta int
	To    int
	Top   bool
	Pin   bool
	Unpin bool
}

// CoreMoveResult is a reorder with core.md's render before and after it.
type CoreMoveResult struct {
	Revision int64      `json:"revision"`
	Changed  []string   `json:"changed"`
	Position int        `json:"position"`
	Pinned   bool       `json:"pinned"`
	Before   CoreReport `json:"before"`
	After    CoreReport `json:"after"`
}
