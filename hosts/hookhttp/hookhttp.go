package hookhttp

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/errcode"
	"scriptorium/hosts/errdoc"
	"scriptorium/hosts/hook"
	"scriptorium/hosts/hook/hookio"
	"scriptorium/hosts/loopback"
)

// Path is where serve answers Claude Code's HTTP hook.
const Path = "/hooks/claude-code"

// writeTimeout bounds one answer, well past the hook's own prompt
// deadline: the recall is cut off by that deadline first.
const writeTimeout = 30 * time.Second

// Options configures the handler.
type Options struct {
	// Log receives one line per failed event, as the CLI hook's stderr
	// does; nil discards.
	Log io.Writer
	// Now is the clock of the status records; nil means time.Now.
	Now func() time.Time
	// PromptDeadline bounds the recall; zero means the hook's default.
	PromptDeadline time.Duration
}

// Handler answers POST Path from e, the long-lived process's open engine
// (serve's, the one its socket answers from), which the caller keeps open
// for the handler's life.
func Handler(e *engine.Engine, opts Options) http.Handler {
	return &handler{e: e, opts: opts}
}

type handler struct {
	e    *engine.Engine
	opts Options
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The rest of serve's rules for what a browser adds to a cross-site
	// request (hosts/httpapi): such a request is refused as there, with
	// an error document. Claude Code sends none of it.
	if err := loopback.Refusal(r); err != nil {
		errdoc.WriteHTTP(w, err)
		return
	}
	if r.Method != http.MethodPost {
		errdoc.WriteHTTP(w, errcode.Errorf(errcode.InvalidArgument, "%s %s: use POST with the hook event's JSON", r.Method, Path))
		return
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		errdoc.WriteHTTP(w, errcode.Errorf(errcode.InvalidArgument, "POST bodies must be sent as application/json"))
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(writeTimeout))
	// From here on the request is a hook event, and the hook never breaks
	// a prompt: whatever fails is recorded in the hook status and the
	// answer is 200 with an empty body (Claude Code goes on without
	// context). The body is read whole first, bounded one byte past the
	// hook's own limit so that the hook says "too large" as the CLI does.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, hookio.MaxInputBytes+1))
	var tooBig *http.MaxBytesError
	if err != nil && !errors.As(err, &tooBig) {
		body = nil // cut off mid-body: the hook records it as bad input
	}
	var out bytes.Buffer
	_ = hook.Served(bytes.NewReader(body), &out, h.e, hook.Options{StateDir: h.e.StateDir(), Log: h.opts.Log,
		Now: h.opts.Now, PromptDeadline: h.opts.PromptDeadline})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(out.Len()))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.Bytes())
}
