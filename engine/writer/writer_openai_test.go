package writer_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// wtServer is an OpenAI-compatible chat completions endpoint on loopback.
// reply decides each answer from the decoded request; it may write any
// status and body.
type wtServer struct {
	*httptest.Server
	mu    sync.Mutex
	calls []wtChatRequest
	auth  []string
}

// wtChatRequest is the part of a chat completions request the tests read.
type wtChatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

func (r wtChatRequest) user() string {
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

func wtNewServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, req wtChatRequest)) *wtServer {
	t.Helper()
	s := &wtServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"no such route"}}`, http.StatusNotFound)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req wtChatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.calls = append(s.calls, req)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.mu.Unlock()
		reply(w, r, req)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *wtServer) requests() []wtChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]wtChatRequest(nil), s.calls...)
}

// wtAnswer writes a successful chat completion whose message is text.
func wtAnswer(w http.ResponseWriter, text string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"model":   "test-model",
		"choices": []map[string]any{{"message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
		"usage":   map[string]int{"prompt_tokens": 100, "completion_tokens": 50},
	})
}

// wtGoodReply answers with edits citing every source the request lists,
// inside a ```json fence as many models write it.
func wtGoodReply(w http.ResponseWriter, _ *http.Request, req wtChatRequest) {
	wtAnswer(w, "Sure.\n\n```json\n"+wtCitingEdits(wtSources(req.user()))+"\n```")
}

// wtOpenAIState is a state dir configured for the OpenAI-compatible server
// at url (no API key) holding three pending owner turns.
func wtOpenAIState(t *testing.T, url string) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	wtImport(t, state, wtChain("",
		wtTurn{Session: "chat", ID: "c1", Role: "user", Content: "My sister Ines lives in Porto."},
		wtTurn{Session: "chat", ID: "c2", Role: "assistant", Content: "Noted: Ines lives in Porto."},
		wtTurn{Session: "chat", ID: "c3", Role: "user", Content: "She works as a marine biologist."})...)
	cfg := "[model]\nprovider = \"openai\"\nbase_url = \"" + url + "/v1\"\nname = \"test-model\"\n"
	if err := os.WriteFile(workspace.ConfigPath(state), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return state
}

// TestWrite_OpenAISuccess drives the writer end to end through config.toml
// against an OpenAI-compatible server: the answer's edits and the batch's
// archive install in one revision, verify is clean, markers are set.
func TestWrite_OpenAISuccess(t *testing.T) {
	ctx := context.Background()
	srv := wtNewServer(t, wtGoodReply)
	state := wtOpenAIState(t, srv.URL)
	e := wtOpen(t, state, nil)
	if got := e.Config().ModelName(); got != "openai:test-model" {
		t.Errorf("model %q", got)
	}
	res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
	if err != nil || res.Batches != 1 || res.Revision != 1 {
		t.Fatalf("write: %+v, %v", res, err)
	}
	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("server got %d requests", len(reqs))
	}
	if reqs[0].Model != "test-model" || len(reqs[0].Messages) != 2 || reqs[0].Messages[0].Role != "system" {
		t.Errorf("request %+v, want model test-model with a system and a user message", reqs[0])
	}
	if srv.auth[0] != "" {
		t.Errorf("an Authorization header was sent without a configured key: %q", srv.auth[0])
	}
	if got := len(wtSection(reqs[0].user(), "TURNS")); got != 3 {
		t.Errorf("sent %d turn lines, want 3", got)
	}
	ftVerifyClean(t, e)
	cites := wtCitations(t, state)
	for _, id := range []string{"c1", "c2", "c3"} {
		if cites["openprogram/chat/"+id] != 1 {
			t.Errorf("%s cited %d times", id, cites["openprogram/chat/"+id])
		}
	}
	if got := wtMarked(t, wtStore(t, state), wtWorkspaceID(t, e), "c1", "c2", "c3"); len(got) != 3 {
		t.Errorf("marked %v, want all three", got)
	}
	h := ftHistory(t, e)
	if len(h) != 1 || h[0].Kind != "write" || len(h[0].Changed) != 2 {
		t.Errorf("history %+v, want one write changing the archive and the topic", h)
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Writer.PendingTurns != 0 || st.Writer.LastFailure != nil || st.Writer.LastSuccessAt == "" || st.Model != "openai:test-model" {
		t.Errorf("status %+v model %q", st.Writer, st.Model)
	}
}

// TestWrite_OpenAIFailures: every failure kind is a WriteFailure with its
// code and retryability; nothing is installed (revision, files, markers);
// status reports the failure and the turns still owed.
func TestWrite_OpenAIFailures(t *testing.T) {
	status := func(code int, body string) func(http.ResponseWriter, *http.Request, wtChatRequest) {
		return func(w http.ResponseWriter, _ *http.Request, _ wtChatRequest) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			_, _ = io.WriteString(w, body)
		}
	}
	answer := func(text string) func(http.ResponseWriter, *http.Request, wtChatRequest) {
		return func(w http.ResponseWriter, _ *http.Request, _ wtChatRequest) { wtAnswer(w, text) }
	}
	// edit builds an answer from the sources the request lists.
	edit := func(f func(srcs []wtSource) string) func(http.ResponseWriter, *http.Request, wtChatRequest) {
		return func(w http.ResponseWriter, _ *http.Request, req wtChatRequest) {
			wtAnswer(w, "```json\n"+f(wtSources(req.user()))+"\n```")
		}
	}
	create := func(path, content string) string {
		data, _ := json.Marshal(map[string]any{"edits": []map[string]string{{"op": "create", "path": path, "content": content}}})
		return string(data)
	}
	cases := []struct {
		name      string
		reply     func(http.ResponseWriter, *http.Request, wtChatRequest)
		timeout   bool // the server never answers; the caller's deadline ends the call
		lockHeld  bool
		code      errcode.Code
		retryable bool
		violation string // REJECTED: the code of the violation reported
	}{
		{name: "401", reply: status(401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`),
			code: errcode.ModelAuth},
		{name: "500", reply: status(500, `{"error":{"message":"internal error"}}`),
			code: errcode.ModelUnavailable, retryable: true},
		{name: "503", reply: status(503, `{"error":{"message":"overloaded"}}`),
			code: errcode.ModelUnavailable, retryable: true},
		{name: "timeout", timeout: true, code: errcode.ModelUnavailable, retryable: true},
		{name: "no JSON in the answer", reply: answer("I would rather not write any memory today."),
			code: errcode.ModelOutputInvalid},
		{name: "edits not a list", reply: answer(`{"edits":"create a topic please"}`),
			code: errcode.ModelOutputInvalid},
		{name: "unknown op", reply: answer(`{"edits":[{"op":"rewrite","path":"topics/x.md","content":"x"}]}`),
			code: errcode.ModelOutputInvalid},
		{name: "body not JSON", reply: status(200, `<html>gateway</html>`),
			code: errcode.ModelOutputInvalid},
		{name: "cites an unknown source", reply: edit(func(srcs []wtSource) string {
			return create("topics/bad.md", "# Bad\n\nInes lives in Porto.[^e-0123456789] ^0badc0de\n\n"+
				"[^e-0123456789]: Time: `2026-08-10`; Sources: [openprogram/chat/nope](../sources/openprogram/_v2/chat.md#source-00000000)\n")
		}), code: errcode.Rejected, violation: "unresolved_source"},
		{name: "bad block id", reply: edit(func(srcs []wtSource) string {
			s := srcs[0]
			return create("topics/bad.md", "# Bad\n\nInes lives in Porto.[^e-0123456789] ^NOTHEX12\n\n"+
				"[^e-0123456789]: Time: `2026-08-10`; Sources: ["+s.Ref+"](../"+s.Path+"#"+s.Anchor+")\n")
		}), code: errcode.Rejected, violation: "bad_block_id"},
		{name: "path outside topics", reply: edit(func(srcs []wtSource) string {
			return create("../escape.md", "# Escape\n")
		}), code: errcode.Rejected, violation: "bad_path"},
		{name: "lock held", reply: wtGoodReply, lockHeld: true, code: errcode.LockBusy, retryable: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			release := make(chan struct{})
			reply := c.reply
			if c.timeout {
				reply = func(w http.ResponseWriter, r *http.Request, _ wtChatRequest) {
					select { // hang until the client gives up
					case <-r.Context().Done():
					case <-release:
					}
				}
			}
			srv := wtNewServer(t, reply)
			t.Cleanup(func() { close(release) }) // runs before srv.Close
			state := wtOpenAIState(t, srv.URL)
			e := wtOpen(t, state, nil)
			ws := wtWorkspaceID(t, e)
			tree := ftTree(t, state)
			ctx := context.Background()
			if c.timeout {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, time.Second)
				defer cancel()
			}
			if c.lockHeld {
				w, err := workspace.Open(workspace.MemoryDir(state), nil)
				if err != nil {
					t.Fatal(err)
				}
				unlock, err := w.Lock(context.Background(), workspace.LockInteractive)
				if err != nil {
					t.Fatal(err)
				}
				defer unlock()
			}

			res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
			var we *errcode.Error
			if err == nil || ftCode(err) != c.code {
				t.Fatalf("write: %+v, %v; want %s", res, err, c.code)
			}
			we = errcode.As(err)
			t.Logf("write failed as expected: %v", err)
			if we.Retryable() != c.retryable {
				t.Errorf("%s retryable = %v, want %v", we.Code, we.Retryable(), c.retryable)
			}
			if c.violation != "" && (len(we.Violations) != 1 || we.Violations[0].Code != c.violation) {
				t.Errorf("violations %+v, want one %s", we.Violations, c.violation)
			}
			if res.Batches != 0 || len(srv.requests()) != 1 {
				t.Errorf("result %+v after %d model calls, want no batch after one call", res, len(srv.requests()))
			}

			// Nothing was installed.
			if d := ftTreeDiff(tree, ftTree(t, state)); d != "" {
				t.Errorf("a failed write changed the workspace:\n%s", d)
			}
			if got := wtMarked(t, wtStore(t, state), ws, "c1", "c2", "c3"); len(got) != 0 {
				t.Errorf("a failed write marked %v", got)
			}
			st, err := e.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if st.Revision != 0 || len(ftHistory(t, e)) != 0 {
				t.Errorf("revision %d after a failed write", st.Revision)
			}
			f := st.Writer.LastFailure
			if f == nil || f.Code != c.code || f.Retryable != c.retryable || f.Message == "" || f.At == "" {
				t.Errorf("status last_failure %+v, want %s retryable=%v", f, c.code, c.retryable)
			}
			if st.Writer.PendingTurns != 3 || st.Writer.LastSuccessAt != "" {
				t.Errorf("status writer %+v, want 3 pending turns and no success", st.Writer)
			}
			data, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), `"last_failure":{"code":"`+string(c.code)+`"`) {
				t.Errorf("status JSON %s", data)
			}
		})
	}
}
