package writereval

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// A scripted OpenAI-compatible chat completions endpoint on loopback. In
// replay mode it answers each request with the recording keyed by the
// request's hash (its model and messages) and refuses any other request,
// naming its hash; in live mode it forwards each request to a real
// endpoint and, when asked, saves the answer as a recording for replay.
// Nothing here reaches a network unless a live endpoint is given.

// Recording is one recorded answer, a file <hash[:16]>.json.
type Recording struct {
	// Hash is RequestHash of the request it answers.
	Hash  string `json:"hash"`
	Model string `json:"model"`
	// Turns are the source-ids the request's TURNS section listed: which
	// conversation the answer is for, for a reader (and for moving a
	// hand-written answer to a new hash when the prompt changes).
	Turns []string `json:"turns"`
	// Note says where the answer comes from (a live model and the date,
	// or "hand-written" and why).
	Note string `json:"note,omitempty"`
	// Response is the assistant message's text, as the model wrote it.
	Response string `json:"response"`
}

// Message is one chat message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// RequestHash is the key of a request: the SHA-256 of its model and
// messages as canonical JSON, so any change to the prompt, the turns or
// the memory the writer shows the model is a different request.
func RequestHash(model string, messages []Message) string {
	data, _ := json.Marshal(struct {
		Model    string    `json:"model"`
		Messages []Message `json:"messages"`
	}{model, messages})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ServerOptions configures NewServer.
type ServerOptions struct {
	// Dir holds the recordings replayed (replay mode).
	Dir string
	// Upstream, when set, is a live OpenAI-compatible base URL
	// ("http://localhost:11434/v1"): requests are forwarded to it, with
	// Key as the bearer token if set, and none is replayed.
	Upstream, Key string
	// Record, with Upstream, is the directory each answer is saved to.
	Record string
	// Dump, when set, is a directory where a replay request with no
	// recording is saved (<hash[:16]>.request.json), to write its
	// answer by hand.
	Dump string
	// Timeout bounds one upstream call (default 10 minutes).
	Timeout time.Duration
}

// Server is the endpoint; its URL + "/v1" is a model.base_url.
type Server struct {
	*httptest.Server
	opts ServerOptions
	recs map[string]Recording

	mu       sync.Mutex
	answered []string // hashes answered, in order
	misses   []Miss
	failures []string // live mode: upstream calls that failed
}

// Miss is a replay request no recording answers.
type Miss struct {
	Hash  string
	Turns []string
	Saved string // the request's copy under Dump, if any
}

// NewServer starts the endpoint. A recording that does not decode, or
// whose file name is not its hash, is an error.
func NewServer(opts ServerOptions) (*Server, error) {
	s := &Server{opts: opts, recs: map[string]Recording{}}
	if opts.Upstream == "" && opts.Dir != "" {
		recs, err := LoadRecordings(opts.Dir)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			s.recs[r.Hash] = r
		}
	}
	if opts.Timeout <= 0 {
		s.opts.Timeout = 10 * time.Minute
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s, nil
}

// LoadRecordings reads every recording of dir.
func LoadRecordings(dir string) ([]Recording, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Recording
	for _, n := range names {
		if strings.HasSuffix(n, ".request.json") {
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		var r Recording
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("recording %s: %v", n, err)
		}
		if len(r.Hash) != 64 || filepath.Base(n) != r.Hash[:16]+".json" {
			return nil, fmt.Errorf("recording %s: its name must be the first 16 digits of its 64-digit hash %q", n, r.Hash)
		}
		out = append(out, r)
	}
	return out, nil
}

// Answered are the hashes of the requests answered, in order.
func (s *Server) Answered() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.answered...)
}

// Misses are the replay requests no recording answered.
func (s *Server) Misses() []Miss {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Miss(nil), s.misses...)
}

// Failures are the live calls that got no answer.
func (s *Server) Failures() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.failures...)
}

// Unused are the recordings no request asked for, by file name: a
// replayed run that leaves one unused did not send the requests it was
// recorded with.
func (s *Server) Unused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	asked := map[string]bool{}
	for _, h := range s.answered {
		asked[h] = true
	}
	var out []string
	for h := range s.recs {
		if !asked[h] {
			out = append(out, h[:16]+".json")
		}
	}
	sort.Strings(out)
	return out
}

// String explains a miss and how to answer it.
func (m Miss) String() string {
	turns := "no TURNS section"
	if n := len(m.Turns); n > 0 {
		turns = fmt.Sprintf("turns %s … %s", m.Turns[0], m.Turns[n-1])
	}
	msg := fmt.Sprintf("no recorded answer for request %s (%s). Record one from a live model with %s, %s and %s=<dir>, "+
		"or write it by hand as %s.json (hash, model, turns, note, response)", m.Hash, turns, EnvEndpoint, EnvModel, EnvRecord, m.Hash[:16])
	if m.Saved != "" {
		msg += "; the request is saved at " + m.Saved
	} else {
		msg += fmt.Sprintf("; set %s=<dir> to save the request", EnvDump)
	}
	return msg
}

type chatRequest struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		writeError(w, http.StatusNotFound, "no such route "+r.URL.Path)
		return
	}
	body, err := io.ReadAll(r.Body)
	var req chatRequest
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad request: "+err.Error())
		return
	}
	hash := RequestHash(req.Model, req.Messages)
	if s.opts.Upstream != "" {
		s.forward(r.Context(), w, body, hash, req)
		return
	}
	s.mu.Lock()
	rec, ok := s.recs[hash]
	if ok {
		s.answered = append(s.answered, hash)
	}
	s.mu.Unlock()
	if !ok {
		m := Miss{Hash: hash, Turns: turnRefs(req.Messages)}
		if s.opts.Dump != "" {
			p := filepath.Join(s.opts.Dump, hash[:16]+".request.json")
			data, _ := json.MarshalIndent(req, "", "  ")
			if os.MkdirAll(s.opts.Dump, 0o755) == nil && os.WriteFile(p, data, 0o644) == nil {
				m.Saved = p
			}
		}
		s.mu.Lock()
		s.misses = append(s.misses, m)
		s.mu.Unlock()
		// A 4xx other than 401/403/404/408/429 is MODEL_CONFIG: it stops
		// the run at once instead of failing one session.
		writeError(w, http.StatusUnprocessableEntity, m.String())
		return
	}
	writeAnswer(w, req.Model, rec.Response)
}

// forward asks the live endpoint, and records its answer if asked to.
func (s *Server) forward(ctx context.Context, w http.ResponseWriter, body []byte, hash string, req chatRequest) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	up, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(s.opts.Upstream, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		s.fail(w, err.Error())
		return
	}
	up.Header.Set("Content-Type", "application/json")
	if s.opts.Key != "" {
		up.Header.Set("Authorization", "Bearer "+s.opts.Key)
	}
	resp, err := http.DefaultClient.Do(up)
	if err != nil {
		s.fail(w, err.Error())
		return
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		s.fail(w, err.Error())
		return
	}
	if resp.StatusCode/100 != 2 {
		s.mu.Lock()
		s.failures = append(s.failures, fmt.Sprintf("HTTP %d: %.300s", resp.StatusCode, data))
		s.mu.Unlock()
	} else {
		s.mu.Lock()
		s.answered = append(s.answered, hash)
		s.mu.Unlock()
		if s.opts.Record != "" {
			if err := s.record(hash, req, data); err != nil {
				s.fail(w, "record: "+err.Error())
				return
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(data)
}

func (s *Server) fail(w http.ResponseWriter, msg string) {
	s.mu.Lock()
	s.failures = append(s.failures, msg)
	s.mu.Unlock()
	writeError(w, http.StatusBadGateway, msg)
}

// record saves a live answer's text as a recording.
func (s *Server) record(hash string, req chatRequest, data []byte) error {
	var out struct {
		Choices []struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.Choices) == 0 {
		return fmt.Errorf("the answer has no choices to record (%.200s)", data)
	}
	text := messageText(out.Choices[0].Message.Content)
	rec := Recording{Hash: hash, Model: req.Model, Turns: turnRefs(req.Messages),
		Note: "recorded from " + s.opts.Upstream + " on " + time.Now().UTC().Format("2006-01-02"), Response: text}
	enc, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.opts.Record, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.opts.Record, hash[:16]+".json"), append(enc, '\n'), 0o644)
}

// messageText is a message content's text: a string, or the text parts
// of a list.
func messageText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// turnRefs are the "ref"s of the writer prompt's TURNS lines.
func turnRefs(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		rest, ok := strings.CutPrefix(m.Content, "TURNS\n")
		if !ok {
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(rest))
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() && strings.HasPrefix(sc.Text(), "{") {
			var t struct {
				Ref string `json:"ref"`
			}
			if json.Unmarshal(sc.Bytes(), &t) == nil && t.Ref != "" {
				out = append(out, t.Ref)
			}
		}
	}
	return out
}

func writeAnswer(w http.ResponseWriter, model, text string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"model":   model,
		"choices": []map[string]any{{"message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
		"usage":   map[string]int{"prompt_tokens": 0, "completion_tokens": 0},
	})
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "scripted_server"}})
}
