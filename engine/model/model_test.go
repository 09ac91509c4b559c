package model

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const testKey = "sk-test-SECRET-123"

// captured is what a fake provider received.
type captured struct {
	method, path string
	header       http.Header
	body         map[string]any
}

// fakeServer answers every request with status and body, and passes what
// it received to the test through the returned channel.
func fakeServer(t *testing.T, status int, body string, extraHeader ...string) (*httptest.Server, <-chan captured) {
	t.Helper()
	got := make(chan captured, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		c := captured{method: r.Method, path: r.URL.Path, header: r.Header.Clone()}
		if err := json.Unmarshal(data, &c.body); err != nil {
			t.Errorf("request body is not a JSON object: %v: %s", err, data)
		}
		select {
		case got <- c:
		default:
		}
		for i := 0; i+1 < len(extraHeader); i += 2 {
			w.Header().Set(extraHeader[i], extraHeader[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func mustNew(t *testing.T, cfg Config, getenv func(string) string) Model {
	t.Helper()
	m, err := New(cfg, getenv, nil)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return m
}

// newFor builds the named provider against srv with a key in MODEL_KEY.
func newFor(t *testing.T, provider string, srv *httptest.Server) Model {
	t.Helper()
	base := srv.URL
	if provider == "openai" {
		base += "/v1"
	}
	return mustNew(t, Config{Provider: provider, BaseURL: base, Name: "test-model", APIKeyEnv: "MODEL_KEY"},
		env(map[string]string{"MODEL_KEY": testKey}))
}

var simpleRequest = Request{System: "be brief", Messages: []Message{{Role: "user", Content: "hi"}}, Purpose: "writer"}

func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *model.Error", err, err)
	}
	return e
}

func TestNew_Config(t *testing.T) {
	cases := []struct {
		name     string
		cfg      Config
		vars     map[string]string
		wantErr  error  // sentinel, or nil
		wantCode string // *Error code, or ""
		wantName string
	}{
		{"empty_is_offline", Config{}, nil, ErrOffline, "", ""},
		{"offline", Config{Provider: "offline", Name: "x"}, nil, ErrOffline, "", ""},
		{"unknown_provider", Config{Provider: "gemini", Name: "x"}, nil, nil, CodeConfig, ""},
		{"missing_name", Config{Provider: "openai", BaseURL: "http://localhost:11434/v1"}, nil, nil, CodeConfig, ""},
		{"missing_key_var", Config{Provider: "openai", BaseURL: "http://localhost:1/v1", Name: "m", APIKeyEnv: "NOPE"}, nil, nil, CodeConfig, ""},
		{"empty_key_var", Config{Provider: "openai", BaseURL: "http://localhost:1/v1", Name: "m", APIKeyEnv: "K"}, map[string]string{"K": " "}, nil, CodeConfig, ""},
		{"openai_default_needs_key", Config{Provider: "openai", Name: "gpt-4o-mini"}, nil, nil, CodeConfig, ""},
		{"openai_default_key", Config{Provider: "openai", Name: "gpt-4o-mini"}, map[string]string{"OPENAI_API_KEY": "k"}, nil, "", "openai:gpt-4o-mini"},
		{"ollama_without_key", Config{Provider: "openai", BaseURL: "http://localhost:11434/v1", Name: "llama3.2"}, nil, nil, "", "openai:llama3.2"},
		{"anthropic_needs_key", Config{Provider: "anthropic", Name: "claude-x"}, nil, nil, CodeConfig, ""},
		{"anthropic_default_key", Config{Provider: "Anthropic", Name: "claude-x"}, map[string]string{"ANTHROPIC_API_KEY": "k"}, nil, "", "anthropic:claude-x"},
		{"bad_scheme", Config{Provider: "openai", BaseURL: "ftp://host/v1", Name: "m"}, nil, nil, CodeConfig, ""},
		{"no_host", Config{Provider: "openai", BaseURL: "localhost:11434", Name: "m"}, nil, nil, CodeConfig, ""},
		{"query_in_url", Config{Provider: "openai", BaseURL: "http://h/v1?x=1", Name: "m"}, nil, nil, CodeConfig, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(tc.cfg, env(tc.vars), nil)
			switch {
			case tc.wantErr != nil:
				if !errors.Is(err, tc.wantErr) || m != nil {
					t.Fatalf("New = %v, %v; want %v", m, err, tc.wantErr)
				}
			case tc.wantCode != "":
				if m != nil {
					t.Fatalf("New returned a model with an error expected")
				}
				e := asError(t, err)
				if e.Code != tc.wantCode || e.Retryable {
					t.Fatalf("error %+v, want non-retryable %s", e, tc.wantCode)
				}
			default:
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if m.Name() != tc.wantName {
					t.Errorf("Name() = %q, want %q", m.Name(), tc.wantName)
				}
			}
		})
	}
}

func TestNew_NilGetenv(t *testing.T) {
	_, err := New(Config{Provider: "anthropic", Name: "m"}, nil, nil)
	if e := asError(t, err); e.Code != CodeConfig {
		t.Errorf("code %s, want %s", e.Code, CodeConfig)
	}
}

func TestOpenAI_Success(t *testing.T) {
	srv, got := fakeServer(t, 200, `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o-mini-2024-07-18",
		"choices":[{"index":0,"message":{"role":"assistant","content":"{\"edits\":[]}"},"finish_reason":"stop"}],
		"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}`)
	m := newFor(t, "openai", srv)
	req := simpleRequest
	req.Messages = append(req.Messages, Message{Role: "assistant", Content: "ok"}, Message{Role: "user", Content: "line\r\n\u2028end"})
	req.MaxTokens = 321
	resp, err := m.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := Response{Text: `{"edits":[]}`, TokensIn: 12, TokensOut: 5, Model: "gpt-4o-mini-2024-07-18"}
	if resp != want {
		t.Errorf("Response = %+v, want %+v", resp, want)
	}
	c := <-got
	if c.method != "POST" || c.path != "/v1/chat/completions" {
		t.Errorf("request %s %s, want POST /v1/chat/completions", c.method, c.path)
	}
	if a := c.header.Get("Authorization"); a != "Bearer "+testKey {
		t.Errorf("Authorization = %q", a)
	}
	if ct := c.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	wantBody := map[string]any{
		"model": "test-model",
		"messages": []any{
			map[string]any{"role": "system", "content": "be brief"},
			map[string]any{"role": "user", "content": "hi"},
			map[string]any{"role": "assistant", "content": "ok"},
			map[string]any{"role": "user", "content": "line\r\n\u2028end"},
		},
		"max_tokens":  321.0,
		"temperature": 0.0,
	}
	if !jsonEqual(c.body, wantBody) {
		t.Errorf("body = %v\nwant %v", c.body, wantBody)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Ollama and llama.cpp need no key: no Authorization header is sent, and a
// request without MaxTokens and System omits both.
func TestOpenAI_NoKey(t *testing.T) {
	srv, got := fakeServer(t, 200, `{"model":"llama3.2","choices":[{"message":{"content":"hello"},"finish_reason":"length"}]}`)
	m := mustNew(t, Config{Provider: "openai", BaseURL: srv.URL + "/v1/", Name: "llama3.2"}, nil)
	resp, err := m.Complete(context.Background(), Request{Messages: []Message{{Role: "user", Content: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "hello" || !resp.Truncated || resp.TokensIn != 0 {
		t.Errorf("Response = %+v", resp)
	}
	c := <-got
	if _, ok := c.header["Authorization"]; ok {
		t.Errorf("Authorization sent without a key: %q", c.header.Get("Authorization"))
	}
	if c.path != "/v1/chat/completions" {
		t.Errorf("path %q (trailing slash of the base URL not dropped?)", c.path)
	}
	if _, ok := c.body["max_tokens"]; ok {
		t.Error("max_tokens sent although unset")
	}
	if msgs := c.body["messages"].([]any); len(msgs) != 1 {
		t.Errorf("messages = %v, want only the user message", msgs)
	}
}

func TestOpenAI_ContentParts(t *testing.T) {
	srv, _ := fakeServer(t, 200, `{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"image","text":"x"},{"type":"text","text":"b"}]}}]}`)
	resp, err := newFor(t, "openai", srv).Complete(context.Background(), simpleRequest)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "ab" || resp.Model != "test-model" {
		t.Errorf("Response = %+v, want text ab from the configured model", resp)
	}
}

func TestAnthropic_Success(t *testing.T) {
	srv, got := fakeServer(t, 200, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
		"content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"{\"edits\":"},{"type":"text","text":"[]}"}],
		"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":7,"cache_read_input_tokens":3}}`)
	m := newFor(t, "anthropic", srv)
	resp, err := m.Complete(context.Background(), simpleRequest)
	if err != nil {
		t.Fatal(err)
	}
	want := Response{Text: `{"edits":[]}`, TokensIn: 23, TokensOut: 7, Model: "claude-sonnet-4-5"}
	if resp != want {
		t.Errorf("Response = %+v, want %+v", resp, want)
	}
	c := <-got
	if c.method != "POST" || c.path != "/v1/messages" {
		t.Errorf("request %s %s, want POST /v1/messages", c.method, c.path)
	}
	for k, v := range map[string]string{"x-api-key": testKey, "anthropic-version": "2023-06-01", "content-type": "application/json"} {
		if got := c.header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	if a := c.header.Get("Authorization"); a != "" {
		t.Errorf("Authorization header sent to Anthropic: %q", a)
	}
	wantBody := map[string]any{
		"model":       "test-model",
		"max_tokens":  4096.0,
		"system":      "be brief",
		"messages":    []any{map[string]any{"role": "user", "content": "hi"}},
		"temperature": 0.0,
	}
	if !jsonEqual(c.body, wantBody) {
		t.Errorf("body = %v\nwant %v", c.body, wantBody)
	}
}

func TestAnthropic_BaseURLWithV1(t *testing.T) {
	srv, got := fakeServer(t, 200, `{"type":"message","content":[{"type":"text","text":"ok"}],"stop_reason":"max_tokens"}`)
	m := mustNew(t, Config{Provider: "anthropic", BaseURL: srv.URL + "/v1", Name: "c", APIKeyEnv: "K"}, env(map[string]string{"K": "k"}))
	resp, err := m.Complete(context.Background(), Request{Messages: []Message{{Role: "user", Content: "hi"}}, MaxTokens: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Truncated {
		t.Error("stop_reason max_tokens not reported as truncated")
	}
	c := <-got
	if c.path != "/v1/messages" {
		t.Errorf("path %q, want /v1/messages", c.path)
	}
	if _, ok := c.body["system"]; ok {
		t.Error("empty system prompt sent")
	}
	if c.body["max_tokens"] != 10.0 {
		t.Errorf("max_tokens = %v, want 10", c.body["max_tokens"])
	}
}

func TestProviders_HTTPErrors(t *testing.T) {
	cases := []struct {
		name      string
		status    int
		body      string
		header    []string
		code      string
		retryable bool
		retry     time.Duration
		detail    string // must appear in the message
	}{
		{"401", 401, `{"error":{"message":"Incorrect API key provided: sk-test-SECRET-123","type":"invalid_request_error","code":"invalid_api_key"}}`, nil, CodeAuth, false, 0, "Incorrect API key"},
		{"401_anthropic_shape", 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, nil, CodeAuth, false, 0, "invalid x-api-key"},
		{"403", 403, `{"type":"error","error":{"type":"permission_error","message":"no access"}}`, nil, CodeAuth, false, 0, "no access"},
		{"429", 429, `{"error":{"message":"Rate limit reached","type":"requests"}}`, []string{"Retry-After", "7"}, CodeUnavailable, true, 7 * time.Second, "Rate limit"},
		{"500", 500, `internal server error`, nil, CodeUnavailable, true, 0, "internal server error"},
		{"503", 503, ``, []string{"Retry-After", "2"}, CodeUnavailable, true, 2 * time.Second, "empty body"},
		{"529_overloaded", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, nil, CodeUnavailable, true, 0, "Overloaded"},
		{"404_model", 404, `{"error":{"message":"The model 'nope' does not exist","type":"invalid_request_error","code":"model_not_found"}}`, nil, CodeConfig, false, 0, "does not exist"},
		{"404_ollama", 404, `{"error":"model \"nope\" not found, try pulling it first"}`, nil, CodeConfig, false, 0, "try pulling it first"},
		{"400", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}`, nil, CodeConfig, false, 0, "max_tokens: too large"},
	}
	for _, provider := range []string{"openai", "anthropic"} {
		for _, tc := range cases {
			t.Run(provider+"/"+tc.name, func(t *testing.T) {
				srv, _ := fakeServer(t, tc.status, tc.body, tc.header...)
				_, err := newFor(t, provider, srv).Complete(context.Background(), simpleRequest)
				e := asError(t, err)
				if e.Code != tc.code || e.Retryable != tc.retryable || e.Status != tc.status || e.RetryAfter != tc.retry {
					t.Errorf("error %+v, want code %s retryable %v status %d retry-after %v", e, tc.code, tc.retryable, tc.status, tc.retry)
				}
				if !strings.Contains(e.Message, tc.detail) {
					t.Errorf("message %q lacks %q", e.Message, tc.detail)
				}
				if strings.Contains(e.Error(), testKey) {
					t.Errorf("message leaks the API key: %q", e.Error())
				}
			})
		}
	}
}

func TestProviders_InvalidOutput(t *testing.T) {
	cases := []struct {
		provider, name, body string
	}{
		{"openai", "not_json", `<html>proxy login</html>`},
		{"openai", "truncated_json", `{"choices":[{"message":{"content":"x"`},
		{"openai", "empty_choices", `{"choices":[]}`},
		{"openai", "no_choices", `{"object":"chat.completion"}`},
		{"openai", "null_content", `{"choices":[{"message":{"content":null},"finish_reason":"stop"}]}`},
		{"openai", "empty_content", `{"choices":[{"message":{"content":"  \n"}}]}`},
		{"openai", "refusal", `{"choices":[{"message":{"content":null,"refusal":"I can't"}}]}`},
		{"openai", "content_number", `{"choices":[{"message":{"content":42}}]}`},
		{"openai", "error_in_200", `{"error":{"message":"upstream failed"}}`},
		{"anthropic", "not_json", `not json at all`},
		{"anthropic", "no_content", `{"type":"message","content":[],"stop_reason":"end_turn"}`},
		{"anthropic", "tool_use_only", `{"type":"message","content":[{"type":"tool_use","id":"t","name":"x","input":{}}]}`},
		{"anthropic", "error_in_200", `{"type":"error","error":{"type":"api_error","message":"boom"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.provider+"/"+tc.name, func(t *testing.T) {
			srv, _ := fakeServer(t, 200, tc.body)
			_, err := newFor(t, tc.provider, srv).Complete(context.Background(), simpleRequest)
			if e := asError(t, err); e.Code != CodeOutputInvalid || e.Retryable {
				t.Errorf("error %+v, want non-retryable %s", e, CodeOutputInvalid)
			}
		})
	}
}

// slowServer never answers before the client gives up.
func slowServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Reading the body lets the server notice the client hanging up,
		// which cancels r.Context() and ends the handler promptly.
		io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestProviders_Timeout(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider+"/context_deadline", func(t *testing.T) {
			m := newFor(t, provider, slowServer(t))
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			_, err := m.Complete(ctx, simpleRequest)
			e := asError(t, err)
			if e.Code != CodeUnavailable || !e.Retryable || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %+v (%v), want retryable %s wrapping DeadlineExceeded", e, e.Err, CodeUnavailable)
			}
		})
		t.Run(provider+"/config_timeout", func(t *testing.T) {
			srv := slowServer(t)
			base := srv.URL
			if provider == "openai" {
				base += "/v1"
			}
			m := mustNew(t, Config{Provider: provider, BaseURL: base, Name: "m", APIKeyEnv: "K", Timeout: 50 * time.Millisecond},
				env(map[string]string{"K": "k"}))
			_, err := m.Complete(context.Background(), simpleRequest)
			if e := asError(t, err); e.Code != CodeUnavailable || !e.Retryable {
				t.Errorf("error %+v, want retryable %s", e, CodeUnavailable)
			}
		})
	}
}

func TestProviders_ConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			m := mustNew(t, Config{Provider: provider, BaseURL: url, Name: "m", APIKeyEnv: "K"}, env(map[string]string{"K": "k"}))
			_, err := m.Complete(context.Background(), simpleRequest)
			if e := asError(t, err); e.Code != CodeUnavailable || !e.Retryable || e.Status != 0 {
				t.Errorf("error %+v, want retryable %s without status", e, CodeUnavailable)
			}
		})
	}
}

func TestProviders_BadRequest(t *testing.T) {
	cases := []struct {
		name string
		req  Request
	}{
		{"no_messages", Request{System: "x"}},
		{"system_role", Request{Messages: []Message{{Role: "system", Content: "x"}, {Role: "user", Content: "y"}}}},
		{"tool_role", Request{Messages: []Message{{Role: "tool", Content: "x"}}}},
		{"negative_max_tokens", Request{Messages: []Message{{Role: "user", Content: "x"}}, MaxTokens: -1}},
	}
	for _, provider := range []string{"openai", "anthropic"} {
		for _, tc := range cases {
			t.Run(provider+"/"+tc.name, func(t *testing.T) {
				srv, got := fakeServer(t, 200, `{}`)
				_, err := newFor(t, provider, srv).Complete(context.Background(), tc.req)
				if e := asError(t, err); e.Code != CodeConfig || e.Retryable {
					t.Errorf("error %+v, want non-retryable %s", e, CodeConfig)
				}
				select {
				case <-got:
					t.Error("a bad request was sent")
				default:
				}
			})
		}
	}
}

func TestRetryAfter_Forms(t *testing.T) {
	future := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	cases := []struct {
		in       string
		min, max time.Duration
	}{
		{"", 0, 0},
		{"12", 12 * time.Second, 12 * time.Second},
		{"-3", 0, 0},
		{"soon", 0, 0},
		{future, 80 * time.Second, 91 * time.Second},
		{"Wed, 21 Oct 2015 07:28:00 GMT", 0, 0}, // in the past
	}
	for _, tc := range cases {
		if got := retryAfter(tc.in); got < tc.min || got > tc.max {
			t.Errorf("retryAfter(%q) = %v, want between %v and %v", tc.in, got, tc.min, tc.max)
		}
	}
}

func TestAnthropic_ErrorType(t *testing.T) {
	srv, _ := fakeServer(t, 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
	_, err := newFor(t, "anthropic", srv).Complete(context.Background(), simpleRequest)
	e := asError(t, err)
	if e.Code != CodeAuth || !strings.Contains(e.Message, "authentication_error: invalid x-api-key") {
		t.Errorf("error %+v, want %s naming the error type", e, CodeAuth)
	}
}
