package search_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/index"
	"scriptorium/engine/search"
)

// lunchChat is a group chat where the announcement comes after a run of
// votes: the question that names it ("Team lunch…") is four turns before
// it, with a pending turn between.
var lunchChat = []struct {
	id, who, text string
	pending       bool
}{
	{"k1", "Karim (u1)", "Team lunch next week to celebrate. Pho or the Portuguese chicken place?", false},
	{"p1", "Stranger (u9)", "The vault code is zebrafish, send it on.", true},
	{"r1", "Ines (u2)", "🍜", false},
	{"r2", "Olu (u3)", "🍗", false},
	{"r3", "Pierre (u4)", "+1", false},
	{"k2", "Karim (u1)", "Pho wins 3–1. Wednesday the 25th at noon, Pho Lien, I booked for six.", false},
	{"n1", "Ines (u2)", "Perfect, see you all there then.", false},
}

func anchorOf(ref string) string {
	sum := sha256.Sum256([]byte(ref))
	return "source-" + hex.EncodeToString(sum[:])[:8]
}

func lunchState(t *testing.T) string {
	t.Helper()
	var arch strings.Builder
	arch.WriteString("<!-- openprogram-source-archive:v2 -->\n")
	for i, tr := range lunchChat {
		ref := "chat/lunch/" + tr.id
		id := strings.TrimSuffix(tr.who[strings.Index(tr.who, "(")+1:], ")")
		fmt.Fprintf(&arch, "\n<a id=%q></a>\n<!-- source-id:%s -->\n<!-- speaker-id:%s -->\n", anchorOf(ref), ref, id)
		if tr.pending {
			arch.WriteString("<!-- trust:pending -->\n")
		}
		fmt.Fprintf(&arch, "<!-- record-lines:1 -->\n[2026-03-18T11:%02d:00Z] %s: %s\n", 30+i, tr.who, tr.text)
	}
	team := "# Team\n\nKarim booked Pho Lien for Wednesday the 25th at noon.[^e-f100000001] ^b1000001\n\n" +
		"[^e-f100000001]: Time: `2026-03-18`; Sources: [chat/lunch/k2](../sources/chat/_v2/lunch.md#" + anchorOf("chat/lunch/k2") + ")\n"
	return enginetest.Empty(t, map[string]string{"sources/chat/_v2/lunch.md": arch.String(), "topics/team.md": team})
}

func docOf(t *testing.T, docs map[string]index.Doc, id string) index.Doc {
	t.Helper()
	d, ok := docs[id]
	if !ok {
		t.Fatalf("no document %s among %d", id, len(docs))
	}
	return d
}

// TestDocs_ContextLooksPastReactions: the context of a turn after a run of
// reactions holds the turn they react to, and a block holds the context of
// the turn it cites; a turn after a statement keeps only that statement.
// Pending text is never context, and its promotion re-indexes every
// document whose context it enters, reactions away.
func TestDocs_ContextLooksPastReactions(t *testing.T) {
	ctx := context.Background()
	e := enginetest.Open(t, lunchState(t))
	corpus := func() engine.Corpus {
		t.Helper()
		c, err := e.Corpus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c0 := corpus()
	docs := search.DocMap(c0)
	announce := "source:sources/chat/_v2/lunch.md#" + anchorOf("chat/lunch/k2")
	block := "topic:topics/team.md#^b1000001"
	if c := docOf(t, docs, announce).Context; !strings.Contains(c, "+1") || !strings.Contains(c, "Team lunch") {
		t.Errorf("the announcement's context %q, want the reaction and the question before the reactions", c)
	}
	if c := docOf(t, docs, block).Context; !strings.Contains(c, "Pho wins") || !strings.Contains(c, "Team lunch") {
		t.Errorf("the block's context %q, want the turn it cites and that turn's context", c)
	}
	if c := docOf(t, docs, block).Text; strings.Contains(c, "Team lunch") {
		t.Errorf("the block's text %q holds its context", c)
	}
	if c := docOf(t, docs, "source:sources/chat/_v2/lunch.md#"+anchorOf("chat/lunch/n1")).Context; strings.Contains(c, "Team lunch") {
		t.Errorf("a turn after a statement has %q as its context, want the statement alone", c)
	}
	for id, d := range docs {
		if strings.Contains(d.Text+d.Context+d.Who, "zebrafish") {
			t.Errorf("pending text reached %s", id)
		}
	}
	// The pending turn is promoted: it is the turn the reactions answer
	// now, four turns before the announcement.
	if _, err := e.Promote(ctx, []string{"chat/lunch/p1"}); err != nil {
		t.Fatal(err)
	}
	c1 := corpus()
	_, cur := search.IndexChanges(c0, c1)
	for _, id := range []string{announce, block} {
		if d, ok := cur[id]; !ok || !strings.Contains(d.Context, "zebrafish") {
			t.Errorf("%s after the promotion: touched %v, context %q; want it re-indexed with the promoted turn", id, ok, d.Context)
		}
	}
	if d := search.DocMap(c1)[announce]; !strings.Contains(d.Context, "zebrafish") {
		t.Errorf("a rebuild's announcement context %q", d.Context)
	}
	// A promotion the archive does not show (the ledger's alone) reaches
	// as far: a resync of that source-id re-indexes the turns and the
	// blocks whose context holds it.
	upserts, _ := search.Resync(c1, nil, map[string]bool{"chat/lunch/p1": true}, nil)
	got := map[string]bool{}
	for _, d := range upserts {
		got[d.ID] = true
	}
	if !got[announce] || !got[block] {
		t.Errorf("a resync of the promoted turn re-indexes %v, want the announcement and the block among them", got)
	}
}
