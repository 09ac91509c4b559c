package archive

import (
	"errors"
	"strings"
	"testing"
)

func TestValidSegment_Cases(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"openprogram", true},
		{"sess-7f2a", true},
		{"张三的群", true},
		{"a.b", true},
		{".hidden", true},
		{"with space", true},
		{strings.Repeat("a", MaxSegmentBytes), true},
		{"", false},
		{".", false},
		{"..", false},
		{"a..b", false},
		{"a/b", false},
		{`a\b`, false},
		{"a\x00b", false},
		{"a\nb", false},
		{"a\tb", false},
		{"a\x7fb", false},
		{"a\u0085b", false},
		{"a\xffb", false},
		{strings.Repeat("a", MaxSegmentBytes+1), false},
	}
	for _, tt := range tests {
		err := ValidSegment(tt.name)
		if tt.ok && err != nil {
			t.Errorf("ValidSegment(%q) = %v, want nil", tt.name, err)
		}
		if !tt.ok && !errors.Is(err, ErrInvalidSegment) {
			t.Errorf("ValidSegment(%q) = %v, want ErrInvalidSegment", tt.name, err)
		}
	}
}

func TestFoldKey_Cases(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"Group", "group", true},
		{"GROUP", "gRoUp", true},
		{"Straße", "STRASSE", true},
		{"caf\u00e9", "cafe\u0301", true}, // NFC vs NFD
		{"CAF\u00c9", "cafe\u0301", true}, // and case
		{"\u03a3", "\u03c3", true},        // Σ σ
		{"\u03c2", "\u03c3", true},        // final sigma folds to σ
		{"\u212a", "k", true},             // Kelvin sign
		{"group", "groups", false},
		{"a-b", "a_b", false},
	}
	for _, tt := range tests {
		if got := FoldKey(tt.a) == FoldKey(tt.b); got != tt.same {
			t.Errorf("FoldKey(%q)==FoldKey(%q) is %v, want %v (%q, %q)", tt.a, tt.b, got, tt.same, FoldKey(tt.a), FoldKey(tt.b))
		}
	}
}

func TestParseSourceID_Cases(t *testing.T) {
	tests := []struct {
		id               string
		provider, thread string
		message          string
		ok               bool
	}{
		{"openprogram/group/m3", "openprogram", "group", "m3", true},
		{"telegram/-100123/42", "telegram", "-100123", "42", true},
		{"p/t/a/b/c", "p", "t", "a/b/c", true},
		{"p/t/..", "p", "t", "..", true},
		{"p/t/m-", "p", "t", "m-", true},
		{"p/t", "", "", "", false},
		{"p/t/", "", "", "", false},
		{"/t/m", "", "", "", false},
		{"p//m", "", "", "", false},
		{"../t/m", "", "", "", false},
		{"p/a..b/m", "", "", "", false},
		{`p\q/t/m`, "", "", "", false},
		{"p/t/a--b", "", "", "", false},
		{"p/t/a->b", "", "", "", false},
		{"p/t/a>b", "", "", "", false},
		{"p/t/a\nb", "", "", "", false},
		{"p/t/a\rb", "", "", "", false},
		{"p/t/\xff", "", "", "", false},
		{"", "", "", "", false},
	}
	for _, tt := range tests {
		p, th, m, err := ParseSourceID(tt.id)
		if !tt.ok {
			if !errors.Is(err, ErrInvalidSourceID) {
				t.Errorf("ParseSourceID(%q) err = %v, want ErrInvalidSourceID", tt.id, err)
			}
			continue
		}
		if err != nil || p != tt.provider || th != tt.thread || m != tt.message {
			t.Errorf("ParseSourceID(%q) = %q, %q, %q, %v", tt.id, p, th, m, err)
		}
	}
}
