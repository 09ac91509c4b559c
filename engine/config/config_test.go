package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/errcode"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	cfg, err := Load(filepath.Join(dir, "missing.toml"))
	if err != nil || cfg.String() != Default().String() {
		t.Fatalf("a missing file: %+v, %v; want the defaults", cfg, err)
	}
	if cfg.Memory.Backend != "local" || cfg.ModelName() != OfflineModelName || cfg.Recall.BudgetTokens != DefaultRecallBudget ||
		cfg.Sleep.Mode != ModeInstall || cfg.Sleep.Proposes() {
		t.Errorf("defaults: %+v", cfg)
	}
	for _, c := range []struct{ name, text, want string }{
		{"Valid", "[model]\nprovider = \"openai\"\nname = \"gpt\"\n[writer]\nmode = \"propose\"\n", ""},
		{"UnknownKey", "[memory]\nbakend = \"none\"\n", "unknown keys: memory.bakend"},
		{"BadMode", "[sleep]\nmode = \"later\"\n", "sleep.mode must be"},
		{"SmallRecall", "[recall]\nbudget_tokens = 10\n", "at least 64"},
		{"HalfEmbeddings", "[embeddings]\nmodel = \"m\"\n", "needs both base_url and model"},
		{"NotTOML", "[memory\n", "parse config"},
		{"OwnerNameLink", "[owner]\nname = \"[Sigrid](x.md)\"\n", "owner.name"},
		{"OwnerNameLines", "[owner]\nname = \"Sigrid\\nH\"\n", "control character"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name+".toml")
			if err := os.WriteFile(p, []byte(c.text), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(p)
			if c.want == "" {
				if err != nil || cfg.ModelName() != "openai:gpt" || !cfg.Writer.Proposes() {
					t.Fatalf("%+v, %v", cfg, err)
				}
				return
			}
			if e := errcode.As(err); err == nil || e.Code != errcode.InvalidArgument || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want INVALID_ARGUMENT with %q", err, c.want)
			}
		})
	}
}

// TestLoad_OwnerName: [owner] name is read as written.
func TestLoad_OwnerName(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte("[owner]\nname = \"Sigrid Halvorsen\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(p)
	if err != nil || cfg.Owner.Name != "Sigrid Halvorsen" {
		t.Fatalf("%+v, %v", cfg.Owner, err)
	}
	for _, bad := range []string{" Sigrid", "???", strings.Repeat("a", MaxOwnerName+1), "Sig\u202erid"} {
		if CheckOwnerName(bad) == "" {
			t.Errorf("CheckOwnerName(%q) accepts it", bad)
		}
	}
}
