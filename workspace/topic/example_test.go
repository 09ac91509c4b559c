package topic_test

import (
	"fmt"

	"scriptorium/workspace/topic"
)

func ExampleParse() {
	data := []byte("# Craig\n\n" +
		"Craig is building a budget tracker in Flask.[^e-1175dea39c] ^f888f60e\n\n" +
		"[^e-1175dea39c]: Time: `2024-03-15`; Sources: [openprogram/sess-7f2a/msg_2f9b](../sources/openprogram/_v2/sess-7f2a.md#source-8339b8d3)\n\n" +
		"Craig moved to [Lisbon](places/lisbon.md#^0c1d2e3f).\n")
	f, problems := topic.Parse(data)
	for _, b := range f.Blocks() {
		fmt.Printf("^%s %q refs=%v\n", b.BlockID, topic.BlockText(b), b.Refs)
	}
	for label, d := range f.Definitions() {
		fmt.Println(label, d.Date, d.Sources[0].SourceID, d.Sources[0].Path)
	}
	for _, p := range problems {
		fmt.Println(p.Line, p.Code, p.Severity)
	}
	// Output:
	// ^f888f60e "Craig is building a budget tracker in Flask.[^e-1175dea39c]" refs=[{e-1175dea39c 3}]
	// e-1175dea39c 2024-03-15 openprogram/sess-7f2a/msg_2f9b ../sources/openprogram/_v2/sess-7f2a.md
	// 7 missing_block_id error
}

func ExampleFormatDefinition() {
	d := topic.Definition{
		Label: topic.NewFootnoteLabel("openprogram/sess-7f2a/msg_2f9b"),
		Date:  "2024-03-15",
		Sources: []topic.Citation{{
			SourceID: "openprogram/sess-7f2a/msg_2f9b",
			Path:     "../sources/openprogram/_v2/sess-7f2a.md",
		}},
	}
	fmt.Println(topic.FormatDefinition(d))
	// Output:
	// [^e-9047c1917b]: Time: `2024-03-15`; Sources: [openprogram/sess-7f2a/msg_2f9b](../sources/openprogram/_v2/sess-7f2a.md#source-9047c191)
}
