package distill

import (
	"strings"
	"testing"
	"time"
)

// TestDropEmphasis: markdown's strong emphasis goes, a name holding the
// marks stays (it failed the never-invent check once the marks went).
func TestDropEmphasis(t *testing.T) {
	for in, want := range map[string]string{
		"**Summary:** all tests pass":                    "Summary: all tests pass",
		"it is __really__ done.":                         "it is really done.",
		"**a** and **b**, then __c__":                    "a and b, then c",
		"Added `V202606101415__paylater.sql` and a test": "Added `V202606101415__paylater.sql` and a test",
		"Added V202606101415__paylater.sql and a test":   "Added V202606101415__paylater.sql and a test",
		"edit __init__.py first":                         "edit __init__.py first",
		"lint src/**/*.go and **only** that":             "lint src/**/*.go and only that",
		"a lone ** stays":                                "a lone ** stays",
		"(**note**) the deploy is on Friday":             "(note) the deploy is on Friday",
	} {
		if got := dropEmphasis(in); got != want {
			t.Errorf("dropEmphasis(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSummary_FileNameWithUnderscores: a coding session whose outcome
// names a migration file with "__" keeps a summary citing it (it was
// empty: the rewritten name was a word no turn held).
func TestSummary_FileNameWithUnderscores(t *testing.T) {
	at := time.Date(2026, 6, 10, 14, 10, 0, 0, time.UTC)
	s := Session{Provider: "claude-code", ID: "s1", Project: "/home/dev/shop-db", Turns: []Turn{
		{Ref: "claude-code/s1/t1", Role: RoleUser, Owner: true, Time: at, Content: "Add a table for refunds: refund_items with order_id and amount."},
		{Ref: "claude-code/s1/t2", Role: RoleAssistant, Time: at, Content: "I'll add a migration."},
		{Ref: "claude-code/s1/t3", Role: RoleAssistant, Time: at, Content: "Summary:\n- Added `V202606101415__refund_items.sql` with the refund_items table and its foreign key.\n- Applied locally; 12 tests pass."},
	}}
	sum := Summary(s)
	if sum.Text == "" || len(sum.Cites) == 0 {
		t.Fatalf("no summary: %+v", sum)
	}
	if strings.Contains(sum.Text, "V202606101415refund") {
		t.Errorf("the file name lost its underscores: %q", sum.Text)
	}
}
