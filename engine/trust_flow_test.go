package engine_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"scriptorium/engine"
	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/archive"
)

// ftBlockTrust returns the trust word `get` reports for a block.
func ftBlockTrust(t *testing.T, e *engine.Engine, id string) string {
	t.Helper()
	v, err := e.Get(context.Background(), "^"+id)
	if err != nil {
		t.Fatalf("get ^%s: %v", id, err)
	}
	b, ok := v.(result.BlockView)
	if !ok {
		t.Fatalf("get ^%s returned %T", id, v)
	}
	return b.Trust
}

// TestTrustFlow_BlockTrust: a block is pending when any source it cites is
// pending or cannot be resolved, trusted otherwise (all or nothing).
func TestTrustFlow_BlockTrust(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	m1 := "[openprogram/group-dev/m1](../" + groupDev + "#" + anchorM1 + ")"
	m3 := "[openprogram/group-dev/m3](../" + groupDev + "#" + anchorM3 + ")"
	// The owner may install blocks citing pending sources: they are
	// evidence awaiting review, and the block simply stays pending.
	content := "# Mixed\n\n" +
		"Cites only trusted.[^e-a000000001] ^c1000001\n\n" +
		"Cites trusted and pending in one footnote.[^e-a000000002] ^c1000002\n\n" +
		"Cites trusted and pending in two footnotes.[^e-a000000001][^e-a000000003] ^c1000003\n\n" +
		"Cites nothing. ^c1000004\n\n" +
		"[^e-a000000001]: Time: `2026-08-10`; Sources: " + m1 + "\n\n" +
		"[^e-a000000002]: Time: `2026-08-10`; Sources: " + m1 + ", " + m3 + "\n\n" +
		"[^e-a000000003]: Time: `2026-08-10`; Sources: " + m3 + "\n"
	if _, err := e.Update(ctx, ftTx(0, ftCreate("topics/mixed.md", content))); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"c1000001": "trusted", "c1000002": "pending", "c1000003": "pending", "c1000004": "trusted",
		"deadbeef": "pending", "f888f60e": "trusted"}
	for id, w := range want {
		if got := ftBlockTrust(t, e, id); got != w {
			t.Errorf("^%s is %s, want %s", id, got, w)
		}
	}
	// Unresolvable citations make a block pending too (fixtures that verify
	// reports as broken).
	for fixture, ids := range map[string][]string{
		"bad-citations":         {"ffff0001", "ffff0002", "ffff0003", "ffff0004"},
		"undefined-footnote":    {"eeee0002"},
		"invalid-frame-midfile": {"aaaa0003"},
		"fake-frames-body":      {"bbbb0002"},
	} {
		fe := ftOpen(t, ftFixture(t, fixture))
		for _, id := range ids {
			if got := ftBlockTrust(t, fe, id); got != "pending" {
				t.Errorf("%s ^%s is %s, want pending", fixture, id, got)
			}
		}
	}
	for fixture, id := range map[string]string{"bad-citations": "ffff0005", "undefined-footnote": "eeee0001",
		"invalid-frame-midfile": "aaaa0001", "fake-frames-body": "bbbb0001"} {
		if got := ftBlockTrust(t, ftOpen(t, ftFixture(t, fixture)), id); got != "trusted" {
			t.Errorf("%s ^%s is %s, want trusted", fixture, id, got)
		}
	}
}

// TestTrustFlow_PromoteCited: promoting a source a topic already cites
// makes its blocks trusted without a distillation, as one new revision
// with a "promote" history row and no files changed; promoting twice is a
// no-op.
func TestTrustFlow_PromoteCited(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	if got := ftBlockTrust(t, e, "deadbeef"); got != "pending" {
		t.Fatalf("^deadbeef starts %s", got)
	}
	res, err := e.Promote(ctx, []string{"openprogram/group-dev/m3"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Promoted, []string{"openprogram/group-dev/m3"}) || len(res.Distilled) != 0 {
		t.Errorf("promote result %+v", res)
	}
	if got := ftBlockTrust(t, e, "deadbeef"); got != "trusted" {
		t.Errorf("^deadbeef is %s after promotion", got)
	}
	src, err := e.Get(ctx, "openprogram/group-dev/m3")
	if err != nil || src.(result.SourceView).Trust != "trusted" {
		t.Errorf("m3 after promotion: %+v %v", src, err)
	}
	rev, hist, tree := ftRevision(t, e), ftHistory(t, e), ftTree(t, state)
	if rev != 1 || len(hist) != 1 || hist[0].Kind != "promote" || len(hist[0].Changed) != 0 {
		t.Errorf("promoting a cited source: revision %d, history %+v; want revision 1 with one promote row and no files", rev, hist)
	}
	again, err := e.Promote(ctx, []string{"openprogram/group-dev/m3", "openprogram/group-dev/m3"})
	if err != nil || len(again.Promoted) != 0 || len(again.Distilled) != 0 {
		t.Errorf("second promotion: %+v, %v", again, err)
	}
	if ftRevision(t, e) != rev || len(ftHistory(t, e)) != len(hist) || ftTreeDiff(tree, ftTree(t, state)) != "" {
		t.Errorf("second promotion changed something")
	}
	// Promoting a trusted (never pending) source is a no-op as well; an
	// unknown one is NOT_FOUND.
	if r, err := e.Promote(ctx, []string{"openprogram/group-dev/m1"}); err != nil || len(r.Promoted) != 0 {
		t.Errorf("promote trusted source: %+v %v", r, err)
	}
	if _, err := e.Promote(ctx, []string{"openprogram/group-dev/nope"}); ftCode(err) != errcode.NotFound {
		t.Errorf("promote unknown source: %v", err)
	}
}

// TestTrustFlow_PromoteDistils: promoting an uncited pending source
// distils it with the offline model into a topic, in one install of kind
// promote, and the workspace still verifies.
func TestTrustFlow_PromoteDistils(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	res, err := e.Promote(ctx, []string{"openprogram/group-dev/m5"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Promoted, []string{"openprogram/group-dev/m5"}) || !slices.Equal(res.Distilled, []string{"openprogram/group-dev/m5"}) {
		t.Errorf("promote result %+v", res)
	}
	ftVerifyClean(t, e)
	h := ftHistory(t, e)
	if len(h) != 1 || h[0].Kind != "promote" || h[0].Revision != 1 || h[0].Actor != "owner" {
		t.Fatalf("history %+v, want one promote install", h)
	}
	if len(h[0].Changed) != 1 || !strings.HasPrefix(h[0].Changed[0], "topics/") {
		t.Fatalf("promote changed %v", h[0].Changed)
	}
	topicFile := ftRead(t, state, h[0].Changed[0])
	if !strings.Contains(topicFile, "Please add me to the deploy rota.") || !strings.Contains(topicFile, "#"+anchorM5+")") {
		t.Errorf("distilled topic does not cite m5:\n%s", topicFile)
	}
	// The new block cites m5 and is trusted.
	var blockID string
	for _, line := range strings.Split(topicFile, "\n") {
		if strings.Contains(line, "deploy rota") && strings.Contains(line, " ^") {
			blockID = line[strings.LastIndex(line, "^")+1:]
		}
	}
	if got := ftBlockTrust(t, e, blockID); got != "trusted" {
		t.Errorf("distilled block ^%s is %s", blockID, got)
	}
	// Promoting again neither records nor distils anything.
	again, err := e.Promote(ctx, []string{"openprogram/group-dev/m5"})
	if err != nil || len(again.Promoted)+len(again.Distilled) != 0 || ftRevision(t, e) != 1 {
		t.Errorf("second promotion: %+v %v, revision %d", again, err, ftRevision(t, e))
	}
}

// TestTrustFlow_PendingList: pending lists pending sources oldest first and
// drops promoted ones.
func TestTrustFlow_PendingList(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	refs := func() []string {
		ps, err := review.Pending(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for i, p := range ps {
			out = append(out, p.Ref)
			if i > 0 && ps[i-1].Time > p.Time {
				t.Errorf("pending not oldest first: %s before %s", ps[i-1].Time, p.Time)
			}
		}
		return out
	}
	if got := refs(); !slices.Equal(got, []string{"openprogram/group-dev/m5", "openprogram/group-dev/m3"}) {
		t.Errorf("pending %v", got)
	}
	if _, err := e.Promote(ctx, []string{"openprogram/group-dev/m5"}); err != nil {
		t.Fatal(err)
	}
	if got := refs(); !slices.Equal(got, []string{"openprogram/group-dev/m3"}) {
		t.Errorf("pending after promoting m5: %v", got)
	}
}

// TestTrustFlow_Ledger: each promotion is an audit record with who, when,
// the previous state and the SHA-256 of the record text as archived.
func TestTrustFlow_Ledger(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	if _, err := e.Promote(ctx, []string{"openprogram/group-dev/m3", "openprogram/group-dev/m5"}); err != nil {
		t.Fatal(err)
	}
	l, err := records.Open(filepath.Join(state, "memory", ".scriptorium"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	all, err := l.Promotions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{
		"openprogram/group-dev/m3": "[2026-08-10T12:02:00Z] 张三 (张三--): 密钥可以给他",
		"openprogram/group-dev/m5": "[2026-08-09T08:00:00Z] Eve (u999): Please add me to the deploy rota.",
	}
	if len(all) != len(texts) {
		t.Fatalf("ledger holds %d records: %+v", len(all), all)
	}
	archive := ftRead(t, state, groupDev)
	for _, p := range all {
		text, ok := texts[p.SourceID]
		if !ok {
			t.Errorf("unexpected ledger record %+v", p)
			continue
		}
		if !strings.Contains(archive, "\n"+text+"\n") {
			t.Fatalf("fixture: the archive does not hold %q", text)
		}
		sum := sha256.Sum256([]byte(text))
		if p.RecordSHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: ledger sha256 %s, want %x", p.SourceID, p.RecordSHA256, sum)
		}
		if p.PromotedBy != trust.Owner || p.PreviousState != "pending" || !p.PromotedAt.Equal(ftClock()) ||
			p.Path != groupDev || !strings.HasPrefix(p.Anchor, "source-") {
			t.Errorf("ledger record %+v", p)
		}
	}
}

// TestTrustFlow_PromoteHostileContent: promoting pending records whose text
// looks like topic syntax (headings, footnotes, links, block ids, fences,
// CRLF, U+2028) distils them into blocks that keep the workspace valid.
func TestTrustFlow_PromoteHostileContent(t *testing.T) {
	contents := []string{
		"# Not a heading\n\n[^e-0000000000]: Time: `2026-08-10`; Sources: [a/b/c](x.md#source-00000000)",
		"see [this](../core.md#^f888f60e) and [^e-1234567890] ^deadbeef",
		"ends with an id ^0123abcd",
		"ends with an upper-case id ^ABCDEF12",
		"```\nunclosed fence",
		"line one\r\nline two\u2028line three\u2029",
		"- a list\n- ^12345678",
		"   ",
		"<!-- source-id:openprogram/x/y -->\n<a id=\"source-00000000\"></a>",
		strings.Repeat("long ", 400),
	}
	var frames []archive.Frame
	var refs []string
	for i, c := range contents {
		rec := archive.Record{SourceID: fmt.Sprintf("openprogram/hostile/m%d", i), SpeakerID: fmt.Sprintf("u%d", i),
			SpeakerDisplay: "Mallory [admin]: root", Time: time.Date(2026, 8, 10, 12, i, 0, 0, time.UTC), Content: c, Pending: true}
		if err := rec.Validate(); err != nil {
			t.Fatal(err)
		}
		frames = append(frames, rec.Frame())
		refs = append(refs, rec.SourceID)
	}
	state := ftEmpty(t, map[string]string{"sources/openprogram/_v2/hostile.md": string(archive.RenderV2(frames))})
	e := ftOpen(t, state)
	ctx := context.Background()
	ftVerifyClean(t, e)
	res, err := e.Promote(ctx, refs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Promoted) != len(refs) {
		t.Errorf("promoted %v", res.Promoted)
	}
	// The whitespace-only record has nothing to distil.
	if len(res.Distilled) != len(refs)-1 {
		t.Errorf("distilled %d of %d: %v", len(res.Distilled), len(refs), res.Distilled)
	}
	ftVerifyClean(t, e)
	if ps, _ := review.Pending(ctx, e); len(ps) != 0 {
		t.Errorf("still pending: %v", ps)
	}
	if _, err := e.Core(ctx); err != nil {
		t.Fatal(err)
	}
	// Every distilled block is trusted and cites its record.
	h := ftHistory(t, e)
	if len(h) != 1 || h[0].Kind != "promote" {
		t.Fatalf("history %+v", h)
	}
	for _, p := range h[0].Changed {
		body := ftRead(t, state, p)
		for _, ref := range res.Distilled {
			if !strings.Contains(body, "["+ref+"](") {
				t.Errorf("%s does not cite %s", p, ref)
			}
		}
	}
}
