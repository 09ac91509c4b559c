package render

// Topic is one parsed topic file, as the renderer needs it.
type Topic struct {
	// Path is relative to the memory workspace, e.g. "topics/people/craig.md".
	Path string
	// Blocks are in file order.
	Blocks []Block
}

// Block is one paragraph or list of a topic file that carries a block id.
type Block struct {
	// ID is the block id: 8 lowercase hex digits, without "^".
	ID string
	// Path is the path of the topic file that holds the block, relative to
	// the memory workspace. When empty, the enclosing Topic's Path is used.
	Path string
	// Raw is the exact block text from the file, including footnote
	// references and the trailing " ^id".
	Raw string
	// Text is the display text: Raw without the " ^id" marker.
	Text string
	// Trusted is false when any cited source is pending or unresolved
	// (SPEC §5). Untrusted blocks appear in no rendered output.
	Trusted bool
	// Footnotes are the definitions the block references, in reference
	// order.
	Footnotes []Footnote
	// Links are the ids of the blocks this block links to.
	Links []string
}

// Footnote is one evidence footnote definition.
type Footnote struct {
	// Label is the footnote label without "[^" and "]", e.g. "e-1175dea39c".
	Label string
	// Date is the footnote's `YYYY-MM-DD` time.
	Date string
	// Raw is the exact definition line from the topic file.
	Raw string
	// Sources are the citations the definition lists.
	Sources []Citation
}

// Citation is one source a footnote cites.
type Citation struct {
	// SourceID is the cited record's source-id, e.g. "openprogram/sess-7f2a/msg_2f9b".
	SourceID string
	// Path is the archive path relative to the topic file's directory.
	Path string
	// Anchor is the frame anchor, "source-<hash>".
	Anchor string
}
