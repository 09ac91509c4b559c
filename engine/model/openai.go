package model

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// openAI talks to an OpenAI-compatible chat completions endpoint.
type openAI struct {
	http  httpClient
	base  string // e.g. https://api.openai.com/v1, http://localhost:11434/v1
	model string
	key   string // "" sends no Authorization header
}

type openAIRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Temperature float64   `json:"temperature"` // 0: as deterministic as the model allows
}

type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content json.RawMessage `json:"content"` // a string, null, or a list of parts
			Refusal string          `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *openAIError `json:"error"`
}

type openAIError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

// Name returns "openai:<model>".
func (m *openAI) Name() string { return "openai:" + m.model }

// Complete sends one chat completion request.
func (m *openAI) Complete(ctx context.Context, req Request) (Response, error) {
	if err := checkRequest(req); err != nil {
		return Response{}, err
	}
	body := openAIRequest{Model: m.model, MaxTokens: req.MaxTokens}
	if req.System != "" {
		body.Messages = append(body.Messages, Message{Role: "system", Content: req.System})
	}
	body.Messages = append(body.Messages, req.Messages...)
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json")
	if m.key != "" {
		header.Set("Authorization", "Bearer "+m.key)
	}
	data, err := m.http.post(ctx, m.base+"/chat/completions", header, body, openAIErrorMessage, m.key)
	if err != nil {
		return Response{}, err
	}

	var out openAIResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return Response{}, invalidOutput("openai", "cannot decode the answer: %v (%s)", err, snippet(data))
	}
	if out.Error != nil && out.Error.Message != "" && len(out.Choices) == 0 {
		return Response{}, invalidOutput("openai", "answer carries an error: %s", redact(out.Error.Message, m.key))
	}
	if len(out.Choices) == 0 {
		return Response{}, invalidOutput("openai", "answer has no choices")
	}
	choice := out.Choices[0]
	text, err := openAIText(choice.Message.Content)
	if err != nil {
		return Response{}, invalidOutput("openai", "%v", err)
	}
	if strings.TrimSpace(text) == "" {
		if choice.Message.Refusal != "" {
			return Response{}, invalidOutput("openai", "model refused: %s", choice.Message.Refusal)
		}
		return Response{}, invalidOutput("openai", "answer has no text (finish_reason %q)", choice.FinishReason)
	}
	name := out.Model
	if name == "" {
		name = m.model
	}
	return Response{
		Text:      text,
		TokensIn:  out.Usage.PromptTokens,
		TokensOut: out.Usage.CompletionTokens,
		Model:     name,
		Truncated: choice.FinishReason == "length",
	}, nil
}

// openAIText reads message.content: a string, or (some compatible servers)
// a list of {"type":"text","text":…} parts.
func openAIText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("message.content is neither a string nor a list of parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" || p.Type == "output_text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

func openAIErrorMessage(body []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.Error) == 0 {
		return ""
	}
	var obj openAIError
	if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	var s string // Ollama and others send "error": "text"
	if json.Unmarshal(e.Error, &s) == nil {
		return s
	}
	return ""
}
