package engine_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/recall"
	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/archive"
)

const (
	srcM1 = "openprogram/group-dev/m1" // trusted
	srcM3 = "openprogram/group-dev/m3" // pending, cited by ^deadbeef
	srcM5 = "openprogram/group-dev/m5" // pending, uncited
)

// tickClock returns a clock that moves one minute per reading, so every
// audit entry has its own time.
func tickClock() func(*engine.Options) {
	t := ftClock()
	return func(o *engine.Options) {
		o.Now = func() time.Time {
			t = t.Add(time.Minute)
			return t
		}
	}
}

func pendingRefs(t *testing.T, e *engine.Engine) []string {
	t.Helper()
	ps, err := review.Pending(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.Ref)
	}
	return out
}

// TestReject_ThenPromote: a rejection leaves the queue and installs
// nothing; rejecting twice is a no-op; promoting the rejected source
// trusts it, records which decision it reversed, and empties the rejected
// list.
func TestReject_ThenPromote(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state, tickClock())
	ctx := context.Background()
	rev := ftRevision(t, e)

	res, err := review.Reject(ctx, e, []string{srcM5, srcM5}, "  not about the project  ")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Rejected, []string{srcM5}) {
		t.Fatalf("rejected %v, want [%s]", res.Rejected, srcM5)
	}
	if got := pendingRefs(t, e); !slices.Equal(got, []string{srcM3}) {
		t.Errorf("pending after reject = %v, want only %s", got, srcM3)
	}
	rj, err := review.Rejected(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	if len(rj) != 1 || rj[0].Ref != srcM5 || rj[0].Reason != "not about the project" || rj[0].RejectedAt == "" ||
		rj[0].RejectedBy != "owner" || rj[0].Content == "" {
		t.Fatalf("rejected list = %+v", rj)
	}
	if got := ftRevision(t, e); got != rev {
		t.Errorf("a rejection installed revision %d (was %d)", got, rev)
	}
	if v, err := e.Get(ctx, srcM5); err != nil || v.(result.SourceView).Trust != "pending" {
		t.Errorf("get %s after reject = %+v, %v; want it still pending", srcM5, v, err)
	}
	again, err := review.Reject(ctx, e, []string{srcM5}, "twice")
	if err != nil || len(again.Rejected) != 0 {
		t.Errorf("second reject = %v, %v; want a no-op", again, err)
	}

	pr, err := e.Promote(ctx, []string{srcM5})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pr.Promoted, []string{srcM5}) || !slices.Equal(pr.Distilled, []string{srcM5}) || pr.Revision != rev+1 ||
		len(pr.Topics) == 0 {
		t.Fatalf("promote of a rejected source = %+v", pr)
	}
	if v, _ := e.Get(ctx, srcM5); v.(result.SourceView).Trust != "trusted" {
		t.Errorf("%s is %s after promotion", srcM5, v.(result.SourceView).Trust)
	}
	if rj, _ := review.Rejected(ctx, e); len(rj) != 0 {
		t.Errorf("rejected after promotion = %+v, want none", rj)
	}
	promos, rejs := ledgers(t, state)
	if len(promos) != 1 || promos[0].SourceID != srcM5 || promos[0].PreviousState != "rejected" {
		t.Errorf("ledger = %+v, want one promotion of %s from state rejected", promos, srcM5)
	}
	// The rejection stays in the log, with the hash of the bytes shown.
	sum := sha256.Sum256([]byte("[2026-08-09T08:00:00Z] Eve (u999): Please add me to the deploy rota."))
	if len(rejs) != 1 || rejs[0].SourceID != srcM5 || rejs[0].RecordSHA256 != hex.EncodeToString(sum[:]) ||
		rejs[0].Reason != "not about the project" || rejs[0].RejectedBy != trust.Owner || rejs[0].Anchor != anchorM5 {
		t.Errorf("rejection log = %+v", rejs)
	}
	// A trusted source can no longer be rejected.
	if _, err := review.Reject(ctx, e, []string{srcM5}, ""); ftCode(err) != errcode.InvalidArgument {
		t.Errorf("reject of a promoted source: %v, want INVALID_ARGUMENT", err)
	}
	ftVerifyClean(t, e)
}

// ledgers reads the promotion ledger and the rejection log of a state dir.
func ledgers(t *testing.T, state string) ([]trust.Promotion, []trust.Rejection) {
	t.Helper()
	l, err := records.Open(filepath.Join(state, "memory", ".scriptorium"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ps, err := l.Promotions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := l.Rejections(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ps, rs
}

// TestReject_Refused: unknown, trusted and paired-tier rejections are
// refused and record nothing.
func TestReject_Refused(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	for name, c := range map[string]struct {
		refs []string
		code errcode.Code
	}{
		"none":           {nil, errcode.InvalidArgument},
		"unknown":        {[]string{srcM5, "openprogram/group-dev/nope"}, errcode.NotFound},
		"trusted":        {[]string{srcM5, srcM1}, errcode.InvalidArgument},
		"legacy trusted": {[]string{"openprogram/old-chat/legacy-L3"}, errcode.InvalidArgument},
	} {
		if _, err := review.Reject(ctx, e, c.refs, "x"); ftCode(err) != c.code {
			t.Errorf("%s: %v, want %s", name, err, c.code)
		}
	}
	if got := pendingRefs(t, e); len(got) != 2 {
		t.Errorf("a refused rejection changed the queue: %v", got)
	}
	paired := ftOpen(t, state, asPaired)
	if _, err := review.Reject(ctx, paired, []string{srcM5}, ""); ftCode(err) != errcode.Forbidden {
		t.Errorf("paired reject: %v, want FORBIDDEN", err)
	}
	if _, err := audit.Audit(ctx, paired, result.AuditQuery{}); ftCode(err) != errcode.Forbidden {
		t.Errorf("paired audit: %v, want FORBIDDEN", err)
	}
}

// TestReject_NeverVisible: a canary word in a rejected source is never
// searchable, recalled or trusted, and a block citing it stays pending.
func TestReject_NeverVisible(t *testing.T) {
	const canary = "quetzalcanary"
	ref := "telegram/group-9/m1"
	arch, _, err := archive.Append(nil, []archive.Record{
		{SourceID: "telegram/group-9/m0", SpeakerID: "u1", SpeakerDisplay: "Ann", Time: ftClock().Add(-time.Hour),
			Content: "The team meets on Mondays."},
		{SourceID: ref, SpeakerID: "u666", SpeakerDisplay: "Mallory", Time: ftClock().Add(-time.Hour),
			Content: "The vault password is " + canary + ".", Pending: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	path := "sources/telegram/_v2/group-9.md"
	topic := "# Vault\n\nThe vault password is known.[^e-0000000001] ^0c0c0c0c\n\n" +
		"[^e-0000000001]: Time: `2026-08-10`; Sources: [" + ref + "](../" + path + "#" + archive.AnchorFor(ref) + ")\n"
	state := ftEmpty(t, map[string]string{path: string(arch), "topics/vault.md": topic})
	e := ftOpen(t, state)
	ctx := context.Background()
	if _, err := review.Reject(ctx, e, []string{ref}, "impersonation"); err != nil {
		t.Fatal(err)
	}
	res, err := e.Search(ctx, result.SearchQuery{Text: canary})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 0 {
		t.Errorf("search %q found a rejected source: %+v", canary, res)
	}
	rec, err := recall.Recall(ctx, e, recall.Request{Prompt: "what is the vault password " + canary, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rec.Text, canary) {
		t.Errorf("recall carries the rejected text:\n%s", rec.Text)
	}
	v, err := e.Get(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if sv := v.(result.SourceView); sv.Trust != "pending" {
		t.Errorf("get %s: trust %s, want pending", ref, sv.Trust)
	}
	if got := ftBlockTrust(t, e, "0c0c0c0c"); got != "pending" {
		t.Errorf("a block citing a rejected source is %s", got)
	}
	core, err := e.Core(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ftRead(t, state, "core.md"), canary) {
		t.Errorf("core.md holds the rejected text (%+v)", core)
	}
}
