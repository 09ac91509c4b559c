package main

import (
	"slices"
	"strings"
	"testing"
)

// TestCLI_RejectPendingRejectedAudit: reject needs a terminal or --yes,
// takes the source out of `pending` into `pending --rejected`, is in the
// audit with its reason, and a later promote reverses it. Every step in
// --json, with the documented shapes.
func TestCLI_RejectPendingRejectedAudit(t *testing.T) {
	state := fixtureState(t, "valid")
	const m3, m5, m1 = "openprogram/group-dev/m3", "openprogram/group-dev/m5", "openprogram/group-dev/m1"
	run := func(args ...string) (map[string]any, int) {
		t.Helper()
		r := runCLI(t, "", append(args, "--json", "--state", state)...)
		return oneJSON(t, r.stdout), r.code
	}
	errCode := func(doc map[string]any) any {
		e, _ := doc["error"].(map[string]any)
		return e["code"]
	}

	if doc, code := run("reject", m5); code != 1 || errCode(doc) != "FORBIDDEN" {
		t.Fatalf("reject without a terminal or --yes: exit %d %v", code, doc)
	}
	doc, code := run("reject", "--yes", m5, "--reason", "not about the project")
	if code != 0 || !slices.Equal(docKeys(doc), []string{"rejected"}) {
		t.Fatalf("reject: exit %d %v", code, doc)
	}
	if got := doc["rejected"].([]any); len(got) != 1 || got[0] != m5 {
		t.Errorf("rejected %v", got)
	}
	if doc, _ := run("reject", "--yes", m5); len(doc["rejected"].([]any)) != 0 {
		t.Errorf("second reject is not a no-op: %v", doc)
	}
	if doc, code := run("reject", "--yes", m1); code != 1 || errCode(doc) != "INVALID_ARGUMENT" {
		t.Errorf("reject of a trusted source: exit %d %v", code, doc)
	}

	pend, _ := run("pending")
	if srcs := pend["sources"].([]any); len(srcs) != 1 || srcs[0].(map[string]any)["ref"] != m3 {
		t.Errorf("pending after reject = %v, want only %s", srcs, m3)
	}
	rej, _ := run("pending", "--rejected")
	srcs := rej["sources"].([]any)
	if len(srcs) != 1 {
		t.Fatalf("pending --rejected = %v", rej)
	}
	r := srcs[0].(map[string]any)
	want := []string{"anchor", "chat", "content", "path", "reason", "ref", "rejected_at", "rejected_by", "speaker_id", "speaker_label", "time"}
	if !slices.Equal(docKeys(r), want) || r["ref"] != m5 || r["reason"] != "not about the project" {
		t.Errorf("rejected source %v, keys %v want %v", r, docKeys(r), want)
	}

	aud, code := run("audit")
	entries, _ := aud["entries"].([]any)
	if code != 0 || !slices.Equal(docKeys(aud), []string{"entries"}) || len(entries) != 1 {
		t.Fatalf("audit: exit %d %v", code, aud)
	}
	en := entries[0].(map[string]any)
	if keys := docKeys(en); !slices.Equal(keys, []string{"actor", "changed", "detail", "kind", "revision", "sources", "time"}) {
		t.Errorf("audit entry keys %v", keys)
	}
	if en["kind"] != "reject" || en["actor"] != "owner" || !strings.Contains(en["detail"].(string), "not about the project") {
		t.Errorf("audit entry %v", en)
	}

	if doc, code := run("promote", "--yes", m5); code != 0 || len(doc["promoted"].([]any)) != 1 {
		t.Fatalf("promote of a rejected source: exit %d %v", code, doc)
	}
	if rej, _ := run("pending", "--rejected"); len(rej["sources"].([]any)) != 0 {
		t.Errorf("still rejected after promotion: %v", rej)
	}
	story, code := run("audit", "--source", m5)
	if code != 0 || !slices.Equal(docKeys(story), []string{"entries", "source"}) {
		t.Fatalf("audit --source: exit %d %v", code, story)
	}
	var kinds []string
	for _, e := range story["entries"].([]any) {
		kinds = append(kinds, e.(map[string]any)["kind"].(string))
	}
	if !slices.Equal(kinds, []string{"promote", "reject", "received"}) {
		t.Errorf("story kinds %v", kinds)
	}
	if st := story["source"].(map[string]any); st["state"] != "promoted" || st["trust"] != "trusted" {
		t.Errorf("story source %v", st)
	}
	if doc, code := run("audit", "--since", "last week"); code != 1 || errCode(doc) != "INVALID_ARGUMENT" {
		t.Errorf("audit --since garbage: exit %d %v", code, doc)
	}
	if doc, code := run("audit", "--source", "nope/nope/nope"); code != 1 || errCode(doc) != "NOT_FOUND" {
		t.Errorf("audit of an unknown source: exit %d %v", code, doc)
	}
	if doc, _ := run("audit", "--since", "2999-01-01"); len(doc["entries"].([]any)) != 0 {
		t.Errorf("audit since the future: %v", doc)
	}
}

// TestCLI_RejectAndPromoteTextNameSpeakers: the human output says whose
// words were rejected or promoted, and whether the name is verified.
func TestCLI_RejectAndPromoteTextNameSpeakers(t *testing.T) {
	state := fixtureState(t, "valid")
	r := runCLI(t, "", "reject", "--yes", "openprogram/group-dev/m5", "--state", state)
	if r.code != 0 || !strings.Contains(r.stdout, "openprogram/group-dev/m5  Eve (u999) — identity verified") {
		t.Errorf("reject text:\n%s%s", r.stdout, r.stderr)
	}
	r = runCLI(t, "", "promote", "--yes", "openprogram/group-dev/m3", "openprogram/group-dev/m5", "--state", state)
	for _, want := range []string{"promoted as revision 1", "openprogram/group-dev/m3  张三 (张三--) — identity verified",
		"distilled openprogram/group-dev/m5 into topics/", "1 already cited by a topic"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("promote text lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	r = runCLI(t, "", "audit", "--state", state)
	if r.code != 0 || !strings.Contains(r.stdout, "reverses the rejection of openprogram/group-dev/m5") {
		t.Errorf("audit text:\n%s%s", r.stdout, r.stderr)
	}
}
