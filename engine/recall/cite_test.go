package recall

import (
	"testing"

	"scriptorium/engine/result"
	"scriptorium/render"
)

// TestCite_SourceBySourceID: a source line cites its source-id, which `get`
// takes, and costs fewer tokens than its archive path and anchor; a block
// keeps its topic file; a source-id that is free text (white space,
// brackets) or longer keeps the path.
func TestCite_SourceBySourceID(t *testing.T) {
	src := func(ref string) Item {
		return Item{Kind: "source", Ref: ref, Path: "sources/claude-code/_v2/e05a7b3c-91f2-4d6e-8a4b-7c3f2d1e9b80.md", Anchor: "source-cf23ce93"}
	}
	long := "sources/claude-code/_v2/e05a7b3c-91f2-4d6e-8a4b-7c3f2d1e9b80.md#source-cf23ce93"
	for _, c := range []struct {
		it   Item
		want string
	}{
		{src("claude-code/e05a7b3c-91f2-4d6e-8a4b-7c3f2d1e9b80/t001"), "claude-code/e05a7b3c-91f2-4d6e-8a4b-7c3f2d1e9b80/t001"},
		{src("whatsapp/120363041188822071@g.us/t015"), "whatsapp/120363041188822071@g.us/t015"},
		{src("x/y/a b"), long},
		{src("x/y/a]b"), long},
		{src("x/y/(a)"), long},
		{src("x/y/" + string(make([]byte, len(long)))), long},
		{src(""), long},
		{Item{Kind: "topic", Ref: "7c37dcb2", Path: "topics/people/nadia.md", Anchor: "^7c37dcb2"}, "topics/people/nadia.md#^7c37dcb2"},
		{Item{Kind: "core", Ref: "7c37dcb2", Path: "topics/core.md", Anchor: "^7c37dcb2"}, "topics/core.md#^7c37dcb2"},
	} {
		if got := cite(c.it); got != c.want {
			t.Errorf("cite(%q) = %q, want %q", c.it.Ref, got, c.want)
		}
	}
	it := src("claude-code/e05a7b3c-91f2-4d6e-8a4b-7c3f2d1e9b80/t001")
	if short, full := render.CountTokens(line(it, "x")), render.CountTokens("- ["+long+"] x"); short >= full {
		t.Errorf("the source-id costs %d tokens, the path %d", short, full)
	}
}

// TestSpeaker_DisplayName: a source is said by its speaker's display name,
// without the id the label adds; the label when there is no display name;
// never a role.
func TestSpeaker_DisplayName(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		display, label *string
		want           string
	}{
		{s("Tomás Aguirre"), s("Tomás Aguirre (tg-88120347)"), "Tomás Aguirre"},
		{nil, s("Mallory"), "Mallory"},
		{s("  "), s("Mallory (m1)"), "Mallory (m1)"},
		{s("assistant"), s("assistant (a)"), ""},
		{nil, nil, ""},
	} {
		if got := speaker(result.SearchResult{SpeakerDisplay: c.display, SpeakerLabel: c.label}); got != c.want {
			t.Errorf("speaker(%v, %v) = %q, want %q", c.display, c.label, got, c.want)
		}
	}
}
