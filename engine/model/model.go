package model

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Message is one conversation message sent to a model.
type Message struct {
	Role    string `json:"role"` // "user" or "assistant"
	Content string `json:"content"`
}

// Request is one completion request.
type Request struct {
	System    string    // instructions; sent as the system prompt
	Messages  []Message // at least one; roles user and assistant only
	MaxTokens int       // upper bound on the answer; 0 = provider default
	Purpose   string    // "writer" or "sleep": for logs and the UI, not sent
}

// Response is a model's answer.
type Response struct {
	Text      string // the answer's text, concatenated if it came in parts
	TokensIn  int    // prompt tokens the provider counted
	TokensOut int    // answer tokens the provider counted
	Model     string // the model that answered, as the provider names it
	Truncated bool   // the answer stopped at the token limit
}

// Model completes requests. Implementations are safe for concurrent use.
type Model interface {
	// Name identifies the model as "<provider>:<model>", e.g.
	// "openai:gpt-4o-mini"; the UI and pass reports show it.
	Name() string
	// Complete sends one request. Every error it returns is an *Error.
	Complete(ctx context.Context, req Request) (Response, error)
}

// Config selects and configures a provider (config.toml's model.* keys).
type Config struct {
	Provider  string        // "openai", "anthropic", or "" / "offline"
	BaseURL   string        // endpoint root; see New for defaults
	Name      string        // the provider's model name, required
	APIKeyEnv string        // environment variable holding the API key
	Timeout   time.Duration // per request; 0 means DefaultTimeout
}

// DefaultTimeout bounds one request when Config.Timeout is zero. Writer
// batches of 16k tokens can take minutes on local models.
const DefaultTimeout = 5 * time.Minute

// The default endpoints and key variables.
const (
	DefaultOpenAIBaseURL    = "https://api.openai.com/v1"
	DefaultOpenAIKeyEnv     = "OPENAI_API_KEY"
	DefaultAnthropicBaseURL = "https://api.anthropic.com"
	DefaultAnthropicKeyEnv  = "ANTHROPIC_API_KEY"
)

// ErrOffline is returned by New for the "offline" provider (and an empty
// one): the engine substitutes its built-in deterministic model.
var ErrOffline = errors.New("model: offline provider is built into the engine")

// New returns the provider cfg names. getenv reads the API key (os.Getenv
// in production; nil means no environment); client sends the requests (nil
// means a new client without a global timeout: the request context and
// cfg.Timeout bound each call).
//
// Defaults: provider "openai" without a base URL talks to OpenAI itself and
// then needs a key, from OPENAI_API_KEY unless APIKeyEnv names another
// variable; with a base URL (Ollama, llama.cpp, vLLM) a key is sent only
// when APIKeyEnv is set. Provider "anthropic" defaults to
// https://api.anthropic.com and always needs a key, from ANTHROPIC_API_KEY
// unless APIKeyEnv says otherwise. A named key variable that is unset or
// empty is a MODEL_CONFIG error, raised here rather than at the first call.
func New(cfg Config, getenv func(string) string, client *http.Client) (Model, error) {
	provider := strings.ToLower(strings.TrimSpace(cfg.Provider))
	if provider == "" || provider == "offline" {
		return nil, ErrOffline
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if client == nil {
		client = &http.Client{}
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if strings.TrimSpace(cfg.Name) == "" {
		return nil, configError("model.name is required for provider %q", provider)
	}

	var defaultURL, defaultKeyEnv string
	keyRequired := true
	switch provider {
	case "openai":
		defaultURL, defaultKeyEnv = DefaultOpenAIBaseURL, DefaultOpenAIKeyEnv
		keyRequired = cfg.BaseURL == ""
	case "anthropic":
		defaultURL, defaultKeyEnv = DefaultAnthropicBaseURL, DefaultAnthropicKeyEnv
	default:
		return nil, configError("unknown model provider %q (want openai, anthropic or offline)", cfg.Provider)
	}
	base, err := baseURL(cfg.BaseURL, defaultURL)
	if err != nil {
		return nil, err
	}
	keyEnv := cfg.APIKeyEnv
	if keyEnv == "" && keyRequired {
		keyEnv = defaultKeyEnv
	}
	key := ""
	if keyEnv != "" {
		if key = strings.TrimSpace(getenv(keyEnv)); key == "" {
			return nil, configError("environment variable %s (model.api_key_env) is not set or empty", keyEnv)
		}
	}

	h := httpClient{client: client, timeout: timeout, provider: provider}
	switch provider {
	case "openai":
		return &openAI{http: h, base: base, model: cfg.Name, key: key}, nil
	default:
		return &anthropic{http: h, base: base, model: cfg.Name, key: key}, nil
	}
}

// baseURL validates a configured endpoint root and drops a trailing slash.
func baseURL(configured, def string) (string, error) {
	raw := strings.TrimSpace(configured)
	if raw == "" {
		raw = def
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", configError("model.base_url %q is not an http(s) URL", configured)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", configError("model.base_url %q must not carry a query or fragment", configured)
	}
	return strings.TrimRight(raw, "/"), nil
}

// checkRequest rejects requests no provider can send.
func checkRequest(req Request) error {
	if len(req.Messages) == 0 {
		return configError("request has no messages")
	}
	for i, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return configError("message %d has role %q; want user or assistant (put instructions in System)", i, m.Role)
		}
	}
	if req.MaxTokens < 0 {
		return configError("max tokens %d is negative", req.MaxTokens)
	}
	return nil
}

func configError(format string, args ...any) *Error {
	return &Error{Code: CodeConfig, Message: fmt.Sprintf(format, args...)}
}
