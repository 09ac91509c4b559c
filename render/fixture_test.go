package render

// Citations of the fixture workspace. Paths are relative to topics/ or
// topics/<dir>/, as the topic parser reports them.
var (
	citeMorning = Citation{SourceID: "openprogram/sess-7f2a/msg_2f9b", Path: "../sources/openprogram/_v2/sess-7f2a.md", Anchor: "source-8339b8d3"}
	citeTracker = Citation{SourceID: "openprogram/sess-7f2a/msg_3a01", Path: "../sources/openprogram/_v2/sess-7f2a.md", Anchor: "source-1c2d3e4f"}
	citeGroup   = Citation{SourceID: "telegram/group-42/m3", Path: "../sources/telegram/_v2/group-42.md", Anchor: "source-deadbeef"}
	citeLegacy  = Citation{SourceID: "openprogram/old/msg_1", Path: "../sources/openprogram/old.md", Anchor: "source-0badf00d"}
)

// footnote builds a canonical footnote definition for a topic at the given
// depth below topics/ (0 for topics/core.md).
func footnote(label, date string, depth int, cites ...Citation) Footnote {
	raw := "[^" + label + "]: Time: `" + date + "`; Sources: "
	var sources []Citation
	for i, c := range cites {
		for range depth {
			c.Path = "../" + c.Path
		}
		if i > 0 {
			raw += ", "
		}
		raw += "[" + c.SourceID + "](" + c.Path + "#" + c.Anchor + ")"
		sources = append(sources, c)
	}
	return Footnote{Label: label, Date: date, Raw: raw, Sources: sources}
}

// block builds a block whose Raw is text plus " ^id".
func block(id, text string, trusted bool, notes []Footnote, links ...string) Block {
	return Block{ID: id, Raw: text + " ^" + id, Text: text, Trusted: trusted, Footnotes: notes, Links: links}
}

// fixtureTopics is a small workspace: a core topic with trusted, pending,
// list and oversized blocks, and two ordinary topics that link to it and
// share sources.
func fixtureTopics() []Topic {
	fMorning := footnote("e-1175dea39c", "2024-03-15", 0, citeMorning)
	fTracker := footnote("e-2a2b2c2d2e", "2024-03-16", 0, citeTracker)
	fGroup := footnote("e-3a3b3c3d3e", "2024-03-17", 0, citeGroup)
	fLegacy := footnote("e-4a4b4c4d4e", "2023-12-31", 0, citeLegacy)
	core := Topic{Path: "topics/core.md", Blocks: []Block{
		block("a1000001", "The owner is Ada; she prefers short answers in the morning.[^e-1175dea39c]", true,
			[]Footnote{fMorning}),
		block("a1000002", "Ada works with [Craig](people/craig.md#^f888f60e) on the [budget tracker](#^a1000004).[^e-2a2b2c2d2e][^e-1175dea39c]", true,
			[]Footnote{fTracker, fMorning}, "f888f60e", "a1000004"),
		block("a1000003", "Someone in the group says the deadline moved to Friday.[^e-3a3b3c3d3e]", false,
			[]Footnote{fGroup}),
		block("a1000004", "- Likes green tea\n- Works best before noon[^e-4a4b4c4d4e]", true,
			[]Footnote{fLegacy}),
		block("a1000005", "Ada keeps a long list of reading notes: Knuth on literate programming, Dijkstra on structured programming, Hoare on communicating sequential processes, Lamport on time and clocks, and Liskov on data abstraction, each with page references and her own commentary.[^e-2a2b2c2d2e]", true,
			[]Footnote{fTracker}),
		block("a1000006", "Ada is left-handed.[^e-1175dea39c]", true,
			[]Footnote{fMorning}),
	}}
	craig := Topic{Path: "topics/people/craig.md", Blocks: []Block{
		block("f888f60e", "Craig is building a budget tracker in Flask, due 2024-04-15.[^e-1175dea39c]", true,
			[]Footnote{footnote("e-1175dea39c", "2024-03-15", 1, citeTracker)}),
		block("f888f60f", "Craig said in the group chat that he will quit Flask.[^e-5a5b5c5d5e]", false,
			[]Footnote{footnote("e-5a5b5c5d5e", "2024-03-17", 1, citeGroup)}),
		block("f8890000", "Craig [asked Ada](../core.md#^a1000002) to review the [tracker](../projects/budget-tracker.md#^b0000001) and the [group rumour](#^f888f60f) & <notes>.[^e-6a6b6c6d6e][^e-7a7b7c7d7e]", true,
			[]Footnote{footnote("e-6a6b6c6d6e", "2024-03-16", 1, citeTracker), footnote("e-7a7b7c7d7e", "2024-04-01", 1, citeMorning, citeTracker)},
			"a1000002", "b0000001", "f888f60f", "missing0"),
	}}
	tracker := Topic{Path: "topics/projects/budget-tracker.md", Blocks: []Block{
		block("b0000001", "The budget tracker stores expenses in SQLite and has a [monthly view].[^e-8a8b8c8d8e]", true,
			[]Footnote{footnote("e-8a8b8c8d8e", "2024-03-16", 1, citeTracker)}),
		block("b0000002", "Undated idea: export to CSV.[^e-9a9b9c9d9e]", true,
			[]Footnote{{Label: "e-9a9b9c9d9e", Date: "not-a-date", Raw: "[^e-9a9b9c9d9e]: Time: `not-a-date`; Sources: none"}}),
	}}
	return []Topic{tracker, core, craig}
}

// fixtureCoreBudget includes the first two trusted core blocks and the list
// block (304 tokens) and stops at the long reading-notes block; the short
// block after it would still fit but is excluded.
const fixtureCoreBudget = 330
