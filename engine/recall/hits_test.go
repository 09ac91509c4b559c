package recall_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// hitsWorkspace is a state dir with one chat archive of the given turns
// (source-id chat/texel/<key>) and topic files of blocks, each block
// citing the turns its cites name.
type hitsBlock struct {
	id, text string
	cites    []string // turn keys
}

func hitsWorkspace(t *testing.T, turns map[string]string, topics map[string][]hitsBlock) string {
	t.Helper()
	var arc strings.Builder
	arc.WriteString("<!-- openprogram-source-archive:v2 -->\n")
	for _, k := range sortedKeys(turns) {
		id := "chat/texel/" + k
		fmt.Fprintf(&arc, "\n<a id=%q></a>\n<!-- source-id:%s -->\n<!-- speaker-id:u1 -->\n<!-- record-lines:1 -->\n[2026-05-02T10:00:00Z] Maarten (u1): %s\n",
			archive.AnchorFor(id), id, turns[k])
	}
	files := map[string]string{"sources/chat/_v2/texel.md": arc.String()}
	for p, blocks := range topics {
		depth := strings.Repeat("../", strings.Count(p, "/")+1)
		var f, defs strings.Builder
		f.WriteString("# " + p + "\n\n")
		for _, b := range blocks {
			label := topic.NewFootnoteLabel(b.id)
			fmt.Fprintf(&f, "%s[^%s] ^%s\n\n", b.text, label, b.id)
			var srcs []string
			for _, k := range b.cites {
				id := "chat/texel/" + k
				srcs = append(srcs, fmt.Sprintf("[%s](%ssources/chat/_v2/texel.md#%s)", id, depth, archive.AnchorFor(id)))
			}
			fmt.Fprintf(&defs, "[^%s]: Time: `2026-05-02`; Sources: %s\n\n", label, strings.Join(srcs, ", "))
		}
		files["topics/"+p] = f.String() + defs.String()
	}
	return enginetest.Empty(t, files)
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// TestRecall_RankOrderAcrossKinds: a turn that answers the prompt and
// ranks first comes in even when lower-ranked blocks alone would fill the
// budget (before, every block was packed before any source); the blocks
// are still shown first.
func TestRecall_RankOrderAcrossKinds(t *testing.T) {
	turns := map[string]string{"t1": "The ferry to Texel leaves from Den Helder pier at nine on Tuesday, book the ferry early"}
	var blocks []hitsBlock
	for i := range 30 {
		key := fmt.Sprintf("b%02d", i)
		turns[key] = fmt.Sprintf("Spring trip number %d with friend %d", i, i)
		blocks = append(blocks, hitsBlock{id: fmt.Sprintf("%08x", 0xa0000000+i),
			text: fmt.Sprintf("Maarten went to Texel on spring trip number %d with friend %d.", i, i), cites: []string{key}})
	}
	e := enginetest.Open(t, hitsWorkspace(t, turns, map[string][]hitsBlock{"people/maarten.md": blocks}))
	res := recallOf(t, e, recall.Request{Prompt: "When does the ferry to Texel leave from Den Helder?", Budget: 600})
	found, blocksIn, seenSource := false, 0, false
	for _, it := range res.Items {
		if it.Kind == "source" {
			seenSource = true
			found = found || it.Ref == "chat/texel/t1"
			continue
		}
		blocksIn++
		if seenSource {
			t.Errorf("block %s after a source:\n%s", it.Ref, res.Text)
		}
	}
	if !found || blocksIn == 0 {
		t.Errorf("want the rank-1 turn beside some blocks (%d):\n%s", blocksIn, res.Text)
	}
}

// TestRecall_BlockTakesItsSourcesPlace: a turn ranked above the block that
// cites it is recalled first, then gives its place to the block; and a
// block whose every cited turn a recalled block already cites (a thread
// block repeating its person's fact) is left out.
func TestRecall_BlockTakesItsSourcesPlace(t *testing.T) {
	turns := map[string]string{
		"t1": "ferry ferry Texel Texel Den Helder: the ferry to Texel leaves Den Helder at nine, ferry booked",
		"t2": "we go every summer, bikes and all",
	}
	topics := map[string][]hitsBlock{
		"people/maarten.md": {{id: "b1000001", text: "Maarten's Tuesday crossing is at nine.", cites: []string{"t1"}}},
		"threads/texel.md":  {{id: "b2000002", text: "Maarten booked the Tuesday crossing at nine.", cites: []string{"t1"}}},
	}
	e := enginetest.Open(t, hitsWorkspace(t, turns, topics))
	const prompt = "ferry to Texel from Den Helder"
	hits, err := e.Search(context.Background(), result.SearchQuery{Text: prompt, Limit: 10})
	if err != nil || len(hits) == 0 || hits[0].Ref != "chat/texel/t1" {
		t.Fatalf("the turn should rank first, above its blocks: %+v %v", hits, err)
	}
	res := recallOf(t, e, recall.Request{Prompt: prompt, Budget: 1000})
	blocks := 0
	for _, it := range res.Items {
		switch it.Ref {
		case "chat/texel/t1":
			t.Errorf("the turn recalled beside a block citing it:\n%s", res.Text)
		case "b1000001", "b2000002":
			blocks++
		}
	}
	if blocks != 1 {
		t.Errorf("want one of the two blocks citing t1, got %d:\n%s", blocks, res.Text)
	}
}

// TestRecall_ChineseTurnIsNoAcknowledgement: a Chinese sentence has no
// spaces, and was dropped as a turn of fewer than three words; "周末见！"
// (see you at the weekend) still is one.
func TestRecall_ChineseTurnIsNoAcknowledgement(t *testing.T) {
	turns := map[string]string{"t1": "周末我做红烧肉和清蒸鱼，你们都回来吃饭", "t2": "周末见！"}
	e := enginetest.Open(t, hitsWorkspace(t, turns, nil))
	res := recallOf(t, e, recall.Request{Prompt: "妈妈周末要做什么菜?", Budget: 1000})
	var got []string
	for _, it := range res.Items {
		got = append(got, it.Ref)
	}
	if len(got) != 1 || got[0] != "chat/texel/t1" {
		t.Errorf("want the dinner turn alone, got %v:\n%s", got, res.Text)
	}
}

// TestRecall_BlocksUnderTheNamedHeading: "Where does Nadia work?" shares
// only her name with her file's blocks, and search ranks the short
// "Nadia …" lines above the long one under "## Work"; the recall takes the
// blocks under the heading the question names first, so the answer is in
// a budget the other lines would fill.
func TestRecall_BlocksUnderTheNamedHeading(t *testing.T) {
	turns := map[string]string{"w": "I'm a pharmacist at the Boots on Kings Road since March, full time and every other weekend"}
	var blocks []hitsBlock
	for i := range 20 {
		key := fmt.Sprintf("b%02d", i)
		turns[key] = fmt.Sprintf("Market day %d", i)
		blocks = append(blocks, hitsBlock{id: fmt.Sprintf("%08x", 0xb0000000+i), cites: []string{key},
			text: fmt.Sprintf("Nadia went to the market on Saturday %d with friend %d and bought apples, pears and bread.", i, i)})
	}
	blocks = append(blocks, hitsBlock{id: "c0000001", cites: []string{"w"},
		text: "## Work\n\nNadia Haddad has been a pharmacist at the Boots on Kings Road since March 2026, full time, with every other weekend on the counter and the late shift on Thursdays."})
	e := enginetest.Open(t, hitsWorkspace(t, turns, map[string][]hitsBlock{"people/nadia.md": blocks}))
	res := recallOf(t, e, recall.Request{Prompt: "Where does Nadia work?", Budget: 600})
	for _, it := range res.Items {
		if it.Ref == "c0000001" {
			return
		}
	}
	t.Errorf("the block under ## Work was not recalled:\n%s", res.Text)
}
