package keymap

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestScopes_NoDuplicateKeys fails when two enabled bindings of one scope
// (plus the global bindings where they apply) share a key.
func TestScopes_NoDuplicateKeys(t *testing.T) {
	km := Default()
	var global []key.Binding
	for _, s := range km.Scopes() {
		if s.Name == "Global" {
			global = s.Bindings
		}
	}
	if len(global) == 0 {
		t.Fatal("no Global scope")
	}
	for _, s := range km.Scopes() {
		t.Run(s.Name, func(t *testing.T) {
			all := s.Bindings
			if s.WithGlobal {
				all = append(append([]key.Binding{}, global...), s.Bindings...)
			}
			if dup := duplicates(all); len(dup) > 0 {
				t.Errorf("keys bound twice in scope %q: %v", s.Name, dup)
			}
		})
	}
}

func TestDuplicates_Detects(t *testing.T) {
	tests := []struct {
		name string
		in   []key.Binding
		want int
	}{
		{"distinct", []key.Binding{bind("a", "x", "a"), bind("b", "y", "b")}, 0},
		{"shared", []key.Binding{bind("a", "x", "a", "c"), bind("b", "y", "b", "c")}, 1},
		{"disabled ignored", []key.Binding{bind("a", "x", "a"),
			key.NewBinding(key.WithKeys("a"), key.WithDisabled())}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := len(duplicates(tt.in)); got != tt.want {
				t.Errorf("duplicates = %d, want %d", got, tt.want)
			}
		})
	}
}

func duplicates(bs []key.Binding) []string {
	seen := map[string]string{}
	var dup []string
	for _, b := range bs {
		if !b.Enabled() {
			continue
		}
		for _, k := range b.Keys() {
			if prev, ok := seen[k]; ok {
				dup = append(dup, k+" ("+prev+" / "+b.Help().Desc+")")
				continue
			}
			seen[k] = b.Help().Desc
		}
	}
	return dup
}

func TestBindings_HaveHelp(t *testing.T) {
	for _, s := range Default().Scopes() {
		for _, b := range s.Bindings {
			if b.Help().Key == "" || b.Help().Desc == "" || len(b.Keys()) == 0 {
				t.Errorf("scope %s: binding %v lacks keys or help", s.Name, b.Keys())
			}
		}
	}
}

// TestMarkdown_DocIsFresh fails when docs/keybindings.md differs from the
// key map. Regenerate with `go run ./keymap/gen` or
// `UPDATE_KEYBINDINGS=1 go test ./keymap`.
func TestMarkdown_DocIsFresh(t *testing.T) {
	path := filepath.Join("..", DocPath)
	want := Default().Markdown()
	if os.Getenv("UPDATE_KEYBINDINGS") != "" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run `go run ./keymap/gen`)", path, err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run `go run ./keymap/gen` from the module root", DocPath)
	}
}
