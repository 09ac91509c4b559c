// Package config is <state>/config.toml (SPEC §11): its tables, their
// defaults and their validation. A leaf: the core, the services and the
// front ends read it; it imports nothing of the engine.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"scriptorium/errcode"
	"scriptorium/render"
)

// DefaultCoreBudget is the o200k_base token budget of core.md (SPEC §8).
const DefaultCoreBudget = render.DefaultCoreBudget

// Config is <state>/config.toml (SPEC §11). A missing file means defaults:
// the local backend, the offline model and a 2000-token core budget.
type Config struct {
	Memory Memory  `toml:"memory"`
	Model  Model   `toml:"model"`
	Daemon Daemon  `toml:"daemon"`
	Recall Recall  `toml:"recall"`
	Sleep  Service `toml:"sleep"`
	Writer Service `toml:"writer"`
	// Embeddings, when configured, add a vector ranking to search.
	Embeddings Embeddings `toml:"embeddings"`
	// Trust is the [trust.<provider>] tables: which senders of a chat
	// export are the owner and who is paired (import --owner/--paired
	// stores them; engine/importer reads and writes them).
	Trust map[string]Trust `toml:"trust"`
	// Import is the [import] table: folders of exports the daemon imports.
	Import Import `toml:"import"`
	// Owner is the [owner] table: what memory calls its owner.
	Owner Owner `toml:"owner"`
}

// Owner is the [owner] table.
type Owner struct {
	// Name is what the writer calls the owner ("Sigrid"): facts from a
	// speakerless session (ChatGPT, Claude Code, the CLI) read "Sigrid …"
	// and are filed in topics/people/<name>.md, with the owner's turns in
	// named chats. "" means the name the owner's own named turns carry
	// most often (sessions.db), else "the owner".
	Name string `toml:"name"`
}

// MaxOwnerName bounds owner.name in runes, as a chat's display name is.
const MaxOwnerName = 64

// CheckOwnerName says what is wrong with a name for owner.name ("" when
// nothing): one line of at most MaxOwnerName characters, with a letter or
// digit, no control characters and none of []():#^ (a speaker label's
// and a link's syntax).
func CheckOwnerName(name string) string {
	if strings.TrimSpace(name) != name {
		return "it starts or ends with a space"
	}
	if utf8.RuneCountInString(name) > MaxOwnerName {
		return fmt.Sprintf("it is longer than %d characters", MaxOwnerName)
	}
	letters := false
	for _, r := range name {
		switch {
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r):
			return "it holds a control character"
		case strings.ContainsRune("[]():#^*_`<>|", r):
			return fmt.Sprintf("it holds %q", r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			letters = true
		}
	}
	if !letters {
		return "it has no letter"
	}
	return ""
}

// Trust is one [trust.<provider>] table: senders as the export
// names them (Telegram from_id, Slack user id, Discord author id, the
// WhatsApp name as written).
type Trust struct {
	Owner  []string `toml:"owner"`
	Paired []string `toml:"paired"`
}

// Import is the [import] table.
type Import struct {
	// Watch are folders (or files) the daemon imports when a file in them
	// is new or grew, e.g. "~/.codex/sessions".
	Watch []string `toml:"watch"`
}

// Embeddings is the [embeddings] table: an OpenAI-compatible
// /embeddings endpoint (OpenAI, Ollama, llama.cpp's server, vLLM). With it,
// search fuses BM25 with vector similarity (method "hybrid", the default);
// without it search is BM25 only. Only trusted text is ever sent.
type Embeddings struct {
	BaseURL   string `toml:"base_url"`    // endpoint root, e.g. "http://localhost:11434/v1"
	Model     string `toml:"model"`       // e.g. "nomic-embed-text"
	APIKeyEnv string `toml:"api_key_env"` // name of the env var holding the key; "" sends none
	// BatchSize is how many texts go in one request; 0 means
	// DefaultEmbedBatch.
	BatchSize int `toml:"batch_size"`
	// TimeoutSeconds bounds one request; 0 means the provider default (60 s).
	TimeoutSeconds int `toml:"timeout_seconds"`
}

// Configured reports whether an embedder is set up.
func (c Embeddings) Configured() bool { return c.BaseURL != "" || c.Model != "" }

// DefaultEmbedBatch is embeddings.batch_size when unset.
const DefaultEmbedBatch = 64

// Service is the [sleep] or [writer] table: whether that service
// installs its work ("install", the default) or stores it as a proposal
// the owner accepts or declines ("propose").
type Service struct {
	Mode string `toml:"mode"`
}

// Proposes reports whether the service waits for the owner.
func (m Service) Proposes() bool { return m.Mode == ModePropose }

// The service modes.
const (
	ModeInstall = "install"
	ModePropose = "propose"
)

// Memory is the [memory] table.
type Memory struct {
	// Backend is "local" (default) or "none", the off switch.
	Backend string `toml:"backend"`
	Writer  struct {
		// Model overrides model.name for the writer only.
		Model string `toml:"model"`
	} `toml:"writer"`
	Core struct {
		// Budget is core.md's token budget; 0 means DefaultCoreBudget.
		Budget int `toml:"budget"`
	} `toml:"core"`
}

// Model is the [model] table: which provider the writer and sleep use.
type Model struct {
	Provider  string `toml:"provider"` // "offline" (default), "openai", "anthropic"
	BaseURL   string `toml:"base_url"`
	Name      string `toml:"name"`
	APIKeyEnv string `toml:"api_key_env"` // name of the env var holding the key; never the key itself
}

// Daemon is the [daemon] table.
type Daemon struct {
	SleepAt     string `toml:"sleep_at"`     // local "HH:MM", default "03:00"
	IdleMinutes int    `toml:"idle_minutes"` // force-write sessions idle this long, default 30
}

// Recall is the [recall] table: per-prompt recall for hosts (the
// Claude Code hook, MCP memory_recall).
type Recall struct {
	// BudgetTokens bounds the fenced context RecallBudget returns, in
	// o200k_base tokens; 0 means DefaultRecallBudget.
	BudgetTokens int `toml:"budget_tokens"`
}

// DefaultRecallBudget is recall.budget_tokens when unset: room for a short
// core and a few hits without crowding the agent's own context.
const DefaultRecallBudget = 1000

// MinRecallBudget is the smallest recall.budget_tokens accepted: the fence
// and its note alone cost about 30 tokens.
const MinRecallBudget = 64

// Load reads the config file at path; a missing file gives defaults.
// Unknown keys are an error so a typo never silently falls back to a default.
func Load(path string) (Config, error) {
	var cfg Config
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg.withDefaults(), nil
	}
	if err != nil {
		return cfg, errcode.Wrap(errcode.IO, err, "read config %s", path)
	}
	md, err := toml.Decode(string(data), &cfg)
	if err != nil {
		return cfg, errcode.Wrap(errcode.InvalidArgument, err, "parse config %s", path)
	}
	if un := md.Undecoded(); len(un) > 0 {
		keys := make([]string, len(un))
		for i, k := range un {
			keys[i] = k.String()
		}
		return cfg, errcode.Errorf(errcode.InvalidArgument, "config %s: unknown keys: %s", path, strings.Join(keys, ", "))
	}
	cfg = cfg.withDefaults()
	return cfg, cfg.validate(path)
}

func (c Config) withDefaults() Config {
	if c.Memory.Backend == "" {
		c.Memory.Backend = "local"
	}
	if c.Memory.Core.Budget == 0 {
		c.Memory.Core.Budget = DefaultCoreBudget
	}
	if c.Model.Provider == "" {
		c.Model.Provider = "offline"
	}
	if c.Daemon.SleepAt == "" {
		c.Daemon.SleepAt = "03:00"
	}
	if c.Daemon.IdleMinutes == 0 {
		c.Daemon.IdleMinutes = 30
	}
	if c.Recall.BudgetTokens == 0 {
		c.Recall.BudgetTokens = DefaultRecallBudget
	}
	if c.Embeddings.BatchSize == 0 {
		c.Embeddings.BatchSize = DefaultEmbedBatch
	}
	for _, m := range []*Service{&c.Sleep, &c.Writer} {
		if m.Mode == "" {
			m.Mode = ModeInstall
		}
	}
	return c
}

func (c Config) validate(path string) error {
	switch c.Memory.Backend {
	case "local", "none":
	default:
		return errcode.Errorf(errcode.InvalidArgument, "config %s: memory.backend must be \"local\" or \"none\", not %q", path, c.Memory.Backend)
	}
	if c.Memory.Core.Budget < 0 {
		return errcode.Errorf(errcode.InvalidArgument, "config %s: memory.core.budget must be positive", path)
	}
	switch c.Model.Provider {
	case "offline", "openai", "anthropic":
	default:
		return errcode.Errorf(errcode.InvalidArgument, "config %s: model.provider must be offline, openai or anthropic, not %q", path, c.Model.Provider)
	}
	for _, m := range []struct {
		name string
		Service
	}{{"sleep.mode", c.Sleep}, {"writer.mode", c.Writer}} {
		if m.Mode != ModeInstall && m.Mode != ModePropose {
			return errcode.Errorf(errcode.InvalidArgument, "config %s: %s must be \"install\" or \"propose\", not %q", path, m.name, m.Mode)
		}
	}
	if _, err := time.Parse("15:04", c.Daemon.SleepAt); err != nil {
		return errcode.Errorf(errcode.InvalidArgument, "config %s: daemon.sleep_at must be HH:MM, not %q", path, c.Daemon.SleepAt)
	}
	if c.Daemon.IdleMinutes < 0 {
		return errcode.Errorf(errcode.InvalidArgument, "config %s: daemon.idle_minutes must be positive", path)
	}
	if em := c.Embeddings; em.Configured() {
		if em.BaseURL == "" || em.Model == "" {
			return errcode.Errorf(errcode.InvalidArgument, "config %s: [embeddings] needs both base_url and model", path)
		}
		if em.BatchSize < 1 || em.BatchSize > 2048 {
			return errcode.Errorf(errcode.InvalidArgument, "config %s: embeddings.batch_size must be between 1 and 2048, not %d", path, em.BatchSize)
		}
		if em.TimeoutSeconds < 0 {
			return errcode.Errorf(errcode.InvalidArgument, "config %s: embeddings.timeout_seconds must be positive", path)
		}
	}
	if n := c.Owner.Name; n != "" {
		if msg := CheckOwnerName(n); msg != "" {
			return errcode.Errorf(errcode.InvalidArgument, "config %s: owner.name %q: %s", path, n, msg)
		}
	}
	// The whole fenced block must fit: below the fence's own cost nothing
	// could ever be recalled, which is a typo rather than a wish.
	if c.Recall.BudgetTokens < MinRecallBudget {
		return errcode.Errorf(errcode.InvalidArgument, "config %s: recall.budget_tokens must be at least %d, not %d", path, MinRecallBudget, c.Recall.BudgetTokens)
	}
	return nil
}

// Disabled reports whether memory.backend = "none": every memory verb and
// the TUI refuse before the workspace is opened.
func (c Config) Disabled() bool { return c.Memory.Backend == "none" }

// String summarises the settings that matter most, for logs.
func (c Config) String() string {
	return fmt.Sprintf("backend=%s provider=%s budget=%d", c.Memory.Backend, c.Model.Provider, c.Memory.Core.Budget)
}

// Default is the configuration of a state dir without config.toml.
func Default() Config { return Config{}.withDefaults() }

// OfflineModelName labels the built-in deterministic model everywhere.
const OfflineModelName = "offline"

// ModelName is the label of the configured model: "offline" for the
// built-in deterministic model, otherwise "<provider>:<name>".
func (c Config) ModelName() string {
	if c.Model.Provider == "" || c.Model.Provider == "offline" {
		return OfflineModelName
	}
	name := c.Model.Name
	if c.Memory.Writer.Model != "" {
		name = c.Memory.Writer.Model
	}
	return c.Model.Provider + ":" + name
}
