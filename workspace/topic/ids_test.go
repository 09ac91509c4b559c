package topic

import "testing"

func TestIsBlockID_Cases(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"f888f60e", true}, {"00000000", true}, {"F888F60E", false}, {"f888f60", false},
		{"f888f60e0", false}, {"g888f60e", false}, {"^f888f60e", false}, {"", false},
	}
	for _, tt := range tests {
		if got := IsBlockID(tt.in); got != tt.want {
			t.Errorf("IsBlockID(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsFootnoteLabel_Cases(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"e-1175dea39c", true}, {"e-1175DEA39C", false}, {"E-1175dea39c", false}, {"e-1175dea39", false},
		{"e-1175dea39c0", false}, {"f-1175dea39c", false}, {"e_1175dea39c", false}, {"1", false}, {"", false},
	}
	for _, tt := range tests {
		if got := IsFootnoteLabel(tt.in); got != tt.want {
			t.Errorf("IsFootnoteLabel(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestNewIDs_Deterministic(t *testing.T) {
	// SHA-256("openprogram/sess-7f2a/msg_2f9b") = 9047c1917b2f0777…
	const seed = "openprogram/sess-7f2a/msg_2f9b"
	if got := NewBlockID(seed); got != "9047c191" {
		t.Errorf("NewBlockID = %q, want 9047c191", got)
	}
	if got := NewFootnoteLabel(seed); got != "e-9047c1917b" {
		t.Errorf("NewFootnoteLabel = %q, want e-9047c1917b", got)
	}
	if got := sourceAnchor(seed); got != "source-9047c191" {
		t.Errorf("sourceAnchor = %q, want source-9047c191", got)
	}
	if !IsBlockID(NewBlockID("")) || !IsFootnoteLabel(NewFootnoteLabel("x")) {
		t.Errorf("generated ids are not valid ids")
	}
}

func TestUniqueBlockID_SkipsTaken(t *testing.T) {
	first := NewBlockID("seed")
	taken := map[string]bool{first: true, NewBlockID("seed#1"): true}
	got := UniqueBlockID("seed", func(id string) bool { return taken[id] })
	if got != NewBlockID("seed#2") {
		t.Errorf("UniqueBlockID = %q, want NewBlockID(seed#2) = %q", got, NewBlockID("seed#2"))
	}
	if got := UniqueBlockID("seed", nil); got != first {
		t.Errorf("UniqueBlockID(nil taken) = %q, want %q", got, first)
	}
	if got := UniqueFootnoteLabel("seed", func(l string) bool { return l == NewFootnoteLabel("seed") }); got != NewFootnoteLabel("seed#1") {
		t.Errorf("UniqueFootnoteLabel = %q", got)
	}
	if got := UniqueBlockID("seed", func(string) bool { return true }); got != "" {
		t.Errorf("UniqueBlockID with everything taken = %q, want \"\"", got)
	}
}
