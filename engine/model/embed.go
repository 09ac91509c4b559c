package model

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Embedder turns texts into vectors: the OpenAI-compatible
// POST <base_url>/embeddings that OpenAI, Ollama, llama.cpp's server and
// vLLM all answer.
type Embedder interface {
	// Name is "<model>" as configured, the key its vectors are cached by.
	Name() string
	// Embed returns one vector per text, in order. Every error is an *Error.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedConfig configures an Embedder (config.toml's [embeddings]).
type EmbedConfig struct {
	BaseURL   string        // endpoint root, e.g. http://localhost:11434/v1; required
	Model     string        // the provider's embedding model, required
	APIKeyEnv string        // environment variable holding the key; "" sends none
	Timeout   time.Duration // per request; 0 means DefaultEmbedTimeout
}

// DefaultEmbedTimeout bounds one embeddings request.
const DefaultEmbedTimeout = 60 * time.Second

// NewEmbedder returns the embedder cfg describes. getenv reads the key
// (nil means no environment); client sends requests (nil: a new client).
func NewEmbedder(cfg EmbedConfig, getenv func(string) string, client *http.Client) (Embedder, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" {
		return nil, configError("embeddings.base_url is required")
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, configError("embeddings.model is required")
	}
	base, err := baseURL(cfg.BaseURL, "")
	if err != nil {
		return nil, configError("embeddings.base_url %q is not an http(s) URL without query or fragment", cfg.BaseURL)
	}
	key := ""
	if cfg.APIKeyEnv != "" {
		if getenv != nil {
			key = strings.TrimSpace(getenv(cfg.APIKeyEnv))
		}
		if key == "" {
			return nil, configError("embeddings.api_key_env names %s, which is unset or empty", cfg.APIKeyEnv)
		}
	}
	if client == nil {
		client = &http.Client{}
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultEmbedTimeout
	}
	return &openAIEmbedder{http: httpClient{client: client, timeout: timeout, provider: "embeddings"},
		url: base + "/embeddings", model: cfg.Model, key: key}, nil
}

type openAIEmbedder struct {
	http       httpClient
	url, model string
	key        string
}

func (o *openAIEmbedder) Name() string { return o.model }

// Embed implements Embedder.
func (o *openAIEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	header := http.Header{"Content-Type": {"application/json"}}
	if o.key != "" {
		header.Set("Authorization", "Bearer "+o.key)
	}
	body := map[string]any{"model": o.model, "input": texts}
	data, err := o.http.post(ctx, o.url, header, body, openAIErrorMessage, o.key)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, &Error{Code: CodeOutputInvalid, Message: "embeddings: answer is not JSON: " + err.Error(), Err: err}
	}
	out := make([][]float32, len(texts))
	dim := -1
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil || len(d.Embedding) == 0 {
			return nil, &Error{Code: CodeOutputInvalid, Message: fmt.Sprintf("embeddings: bad item with index %d", d.Index)}
		}
		if dim >= 0 && len(d.Embedding) != dim {
			return nil, &Error{Code: CodeOutputInvalid, Message: "embeddings: vectors of different lengths"}
		}
		dim = len(d.Embedding)
		out[d.Index] = d.Embedding
	}
	for i, v := range out {
		if v == nil {
			return nil, &Error{Code: CodeOutputInvalid, Message: fmt.Sprintf("embeddings: no vector for input %d of %d", i, len(texts))}
		}
	}
	return out, nil
}
