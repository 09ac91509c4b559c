package writereval

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/model"
)

// ask sends one chat completion through the program's own OpenAI client,
// as the writer does.
func ask(t *testing.T, url, name, user string) (string, error) {
	t.Helper()
	m, err := model.New(model.Config{Provider: "openai", BaseURL: url + "/v1", Name: name}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Complete(context.Background(), model.Request{System: "sys", Purpose: "writer",
		Messages: []model.Message{{Role: "user", Content: user}}, MaxTokens: 100})
	return resp.Text, err
}

func saveRecording(t *testing.T, dir string, r Recording) {
	t.Helper()
	data, _ := json.Marshal(r)
	if err := os.WriteFile(filepath.Join(dir, r.Hash[:16]+".json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestServer_ReplaysByHash(t *testing.T) {
	dir := t.TempDir()
	user := "TURNS\n{\"ref\":\"p/s/t1\",\"content\":\"hi\"}\n{\"ref\":\"p/s/t2\",\"content\":\"<b>&\"}\n\nSOURCES\n"
	hash := RequestHash("m", []Message{{"system", "sys"}, {"user", user}})
	saveRecording(t, dir, Recording{Hash: hash, Model: "m", Response: `{"edits":[]}`})
	s, err := NewServer(ServerOptions{Dir: dir, Dump: filepath.Join(t.TempDir(), "dump")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := ask(t, s.URL, "m", user); err != nil || got != `{"edits":[]}` {
		t.Fatalf("replay: %q, %v", got, err)
	}
	if u := s.Unused(); len(u) != 0 {
		t.Errorf("unused %v after its request", u)
	}
	// Another model, or one byte more in a message, is another request:
	// refused with its hash, its turns and how to answer it; saved to Dump.
	for _, c := range []struct{ name, user string }{{"other", user}, {"m", user + " "}} {
		_, err := ask(t, s.URL, c.name, c.user)
		if err == nil {
			t.Fatalf("%s: a request with no recording was answered", c.name)
		}
		if !strings.Contains(err.Error(), "no recorded answer for request") || !strings.Contains(err.Error(), "p/s/t1 … p/s/t2") {
			t.Errorf("miss error %v", err)
		}
	}
	misses := s.Misses()
	if len(misses) != 2 || misses[0].Hash == hash || misses[0].Hash == misses[1].Hash {
		t.Fatalf("misses %+v", misses)
	}
	data, err := os.ReadFile(misses[1].Saved)
	if err != nil || !strings.Contains(string(data), `"content": "sys"`) {
		t.Errorf("the missed request was not saved for hand answering: %s, %v", data, err)
	}
	if !strings.Contains(misses[1].String(), misses[1].Hash[:16]+".json") || !strings.Contains(misses[1].String(), EnvRecord) {
		t.Errorf("the miss does not say how to answer it: %s", misses[1])
	}
}

func TestLoadRecordings_Refuses(t *testing.T) {
	good := Recording{Hash: strings.Repeat("ab", 32), Response: "x"}
	for name, write := range map[string]func(dir string){
		"misnamed": func(dir string) {
			data, _ := json.Marshal(good)
			_ = os.WriteFile(filepath.Join(dir, "0000000000000000.json"), data, 0o644)
		},
		"unknown field": func(dir string) {
			_ = os.WriteFile(filepath.Join(dir, good.Hash[:16]+".json"), []byte(`{"hash":"`+good.Hash+`","respons":"x"}`), 0o644)
		},
		"not JSON": func(dir string) {
			_ = os.WriteFile(filepath.Join(dir, good.Hash[:16]+".json"), []byte(`{"hash":`), 0o644)
		},
	} {
		dir := t.TempDir()
		write(dir)
		if _, err := NewServer(ServerOptions{Dir: dir}); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

// TestServer_RecordsLive: in live mode each request goes upstream with the
// key, and the answer is saved as a recording that a replay server then
// answers the same request with, byte for byte.
func TestServer_RecordsLive(t *testing.T) {
	var auth []string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		body, _ := io.ReadAll(r.Body)
		var req chatRequest
		_ = json.Unmarshal(body, &req)
		if r.URL.Path != "/v1/chat/completions" || req.Model != "live-model" {
			writeError(w, http.StatusNotFound, "wrong route or model")
			return
		}
		writeAnswer(w, req.Model, "answer to "+req.Messages[len(req.Messages)-1].Content)
	}))
	defer up.Close()
	rec := filepath.Join(t.TempDir(), "rec")
	live, err := NewServer(ServerOptions{Upstream: up.URL + "/v1", Key: "sk-test", Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	got, err := ask(t, live.URL, "live-model", "TURNS\n{\"ref\":\"p/s/t1\",\"content\":\"x\"}\n")
	if err != nil || !strings.HasPrefix(got, "answer to TURNS") {
		t.Fatalf("live: %q, %v", got, err)
	}
	if len(auth) != 1 || auth[0] != "Bearer sk-test" {
		t.Errorf("upstream got Authorization %q", auth)
	}
	recs, err := LoadRecordings(rec)
	if err != nil || len(recs) != 1 || recs[0].Model != "live-model" || len(recs[0].Turns) != 1 || recs[0].Turns[0] != "p/s/t1" {
		t.Fatalf("recordings %+v, %v", recs, err)
	}
	if strings.Contains(recs[0].Note, "sk-test") || strings.Contains(recs[0].Response, "sk-test") {
		t.Error("the key was recorded")
	}
	replay, err := NewServer(ServerOptions{Dir: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Close()
	again, err := ask(t, replay.URL, "live-model", "TURNS\n{\"ref\":\"p/s/t1\",\"content\":\"x\"}\n")
	if err != nil || again != got {
		t.Errorf("replayed %q, %v; recorded %q", again, err, got)
	}
	// An upstream failure is passed on and counted, never recorded.
	if _, err := ask(t, live.URL, "wrong-model", "y"); err == nil {
		t.Error("an upstream 404 was answered")
	}
	if f := live.Failures(); len(f) != 1 || !strings.Contains(f[0], "HTTP 404") {
		t.Errorf("failures %v", f)
	}
	if recs, _ := LoadRecordings(rec); len(recs) != 1 {
		t.Errorf("%d recordings after a failed call", len(recs))
	}
}
