package model

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestNewEmbedder_Config(t *testing.T) {
	env := func(k string) string { return map[string]string{"KEY": "sk-test"}[k] }
	for _, tc := range []struct {
		name string
		cfg  EmbedConfig
		ok   bool
	}{
		{"local", EmbedConfig{BaseURL: "http://127.0.0.1:11434/v1", Model: "nomic-embed-text"}, true},
		{"with key", EmbedConfig{BaseURL: "https://api.example/v1", Model: "m", APIKeyEnv: "KEY"}, true},
		{"no url", EmbedConfig{Model: "m"}, false},
		{"no model", EmbedConfig{BaseURL: "http://127.0.0.1:1/v1"}, false},
		{"bad scheme", EmbedConfig{BaseURL: "ftp://h/v1", Model: "m"}, false},
		{"unset key", EmbedConfig{BaseURL: "http://127.0.0.1:1/v1", Model: "m", APIKeyEnv: "NOPE"}, false},
	} {
		_, err := NewEmbedder(tc.cfg, env, nil)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok=%v", tc.name, err, tc.ok)
		}
		var me *Error
		if err != nil && (!embedErr(err, &me) || me.Code != CodeConfig) {
			t.Errorf("%s: %v is not a MODEL_CONFIG error", tc.name, err)
		}
	}
}

func embedErr(err error, target **Error) bool {
	e, ok := err.(*Error)
	*target = e
	return ok
}

func TestEmbedder_RequestAndAnswer(t *testing.T) {
	var got struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	var auth, path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, path = r.Header.Get("Authorization"), r.URL.Path
		_ = json.NewDecoder(r.Body).Decode(&got)
		// Out of order on purpose: the index decides.
		_, _ = w.Write([]byte(`{"data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0]}]}`))
	}))
	defer srv.Close()
	emb, err := NewEmbedder(EmbedConfig{BaseURL: srv.URL + "/v1/", Model: "m1", APIKeyEnv: "KEY"},
		func(string) string { return "sk-test" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := emb.Embed(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if path != "/v1/embeddings" || auth != "Bearer sk-test" || got.Model != "m1" || strings.Join(got.Input, ",") != "a,b" {
		t.Errorf("request %s auth %q body %+v", path, auth, got)
	}
	if len(vecs) != 2 || vecs[0][0] != 1 || vecs[1][1] != 1 {
		t.Errorf("vectors %v", vecs)
	}
}

func TestEmbedder_BadAnswers(t *testing.T) {
	for _, body := range []string{
		`not json`,
		`{"data":[{"index":0,"embedding":[1,0]}]}`,                                 // one vector for two texts
		`{"data":[{"index":0,"embedding":[1,0]},{"index":0,"embedding":[1,0]}]}`,   // a repeated index
		`{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[1,0,0]}]}`, // lengths differ
		`{"data":[{"index":0,"embedding":[1,0]},{"index":7,"embedding":[1,0]}]}`,   // out of range
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(body))
		}))
		emb, err := NewEmbedder(EmbedConfig{BaseURL: srv.URL, Model: "m"}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = emb.Embed(context.Background(), []string{"a", "b"})
		var me *Error
		if !embedErr(err, &me) || me.Code != CodeOutputInvalid {
			t.Errorf("%s: %v, want MODEL_OUTPUT_INVALID", body, err)
		}
		srv.Close()
	}
}
