package model

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// anthropicVersion is the Messages API version header value.
const anthropicVersion = "2023-06-01"

// DefaultAnthropicMaxTokens is sent when a request sets no MaxTokens: the
// Messages API requires the field.
const DefaultAnthropicMaxTokens = 4096

// anthropic talks to the Anthropic Messages API.
type anthropic struct {
	http  httpClient
	base  string // e.g. https://api.anthropic.com
	model string
	key   string
}

type anthropicRequest struct {
	Model       string    `json:"model"`
	MaxTokens   int       `json:"max_tokens"`
	System      string    `json:"system,omitempty"`
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"` // 0: as deterministic as the model allows
}

type anthropicResponse struct {
	Type    string `json:"type"`
	Model   string `json:"model"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
	Error *anthropicError `json:"error"`
}

type anthropicError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Name returns "anthropic:<model>".
func (m *anthropic) Name() string { return "anthropic:" + m.model }

// Complete sends one Messages API request.
func (m *anthropic) Complete(ctx context.Context, req Request) (Response, error) {
	if err := checkRequest(req); err != nil {
		return Response{}, err
	}
	body := anthropicRequest{Model: m.model, MaxTokens: req.MaxTokens, System: req.System, Messages: req.Messages}
	if body.MaxTokens == 0 {
		body.MaxTokens = DefaultAnthropicMaxTokens
	}
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json")
	header.Set("X-Api-Key", m.key)
	header.Set("Anthropic-Version", anthropicVersion)
	data, err := m.http.post(ctx, m.messagesURL(), header, body, anthropicErrorMessage, m.key)
	if err != nil {
		return Response{}, err
	}

	var out anthropicResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return Response{}, invalidOutput("anthropic", "cannot decode the answer: %v (%s)", err, snippet(data))
	}
	if out.Type == "error" || out.Error != nil {
		msg := "unknown error"
		if out.Error != nil {
			msg = out.Error.Type + ": " + out.Error.Message
		}
		return Response{}, invalidOutput("anthropic", "answer carries an error: %s", redact(msg, m.key))
	}
	var text strings.Builder
	for _, block := range out.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	if strings.TrimSpace(text.String()) == "" {
		return Response{}, invalidOutput("anthropic", "answer has no text (stop_reason %q)", out.StopReason)
	}
	name := out.Model
	if name == "" {
		name = m.model
	}
	return Response{
		Text:      text.String(),
		TokensIn:  out.Usage.InputTokens + out.Usage.CacheCreationInputTokens + out.Usage.CacheReadInputTokens,
		TokensOut: out.Usage.OutputTokens,
		Model:     name,
		Truncated: out.StopReason == "max_tokens",
	}, nil
}

// messagesURL accepts a base URL with or without the /v1 suffix.
func (m *anthropic) messagesURL() string {
	if strings.HasSuffix(m.base, "/v1") {
		return m.base + "/messages"
	}
	return m.base + "/v1/messages"
}

func anthropicErrorMessage(body []byte) string {
	var e struct {
		Error *anthropicError `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error == nil || e.Error.Message == "" {
		return ""
	}
	if e.Error.Type != "" {
		return e.Error.Type + ": " + e.Error.Message
	}
	return e.Error.Message
}
