package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/config"
	"scriptorium/engine/proposals"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/errcode"
	"scriptorium/hosts/errdoc"
	"scriptorium/hosts/loopback"
	"scriptorium/trust"
)

// Bounds on every request, so a slow or oversized client can hold neither
// a connection nor memory (a body sent at one byte a second used to keep
// a connection open for ever).
const (
	// MaxBodyBytes bounds a request body; a larger one is refused with
	// INVALID_ARGUMENT before the engine is opened.
	MaxBodyBytes = 16 << 20
	// ReadTimeout bounds reading a whole request, headers and body.
	ReadTimeout = 30 * time.Second
	// WriteTimeout bounds one API request's handling and answer. It is set
	// per request, not on the server, because the same server carries the
	// MCP endpoint's long-lived event streams.
	WriteTimeout = 2 * time.Minute
	// IdleTimeout closes keep-alive connections nobody uses.
	IdleTimeout = 60 * time.Second
)

// Opener opens the engine for one request at the caller's tier.
type Opener func(ctx context.Context, tier trust.Tier) (*engine.Engine, error)

// New returns the handler of the API under /api/memory/. Each request
// opens the engine through open and closes it afterwards; a long-lived
// server uses NewShared instead.
func New(open Opener) http.Handler { return &apiHandler{open: open} }

// NewShared returns the handler of the API under /api/memory/ answering
// from the engines es keeps open, one per tier, for the whole process:
// a request then costs what changed on disk since the last one, not a
// read and parse of the whole workspace. The caller closes es after the
// server has shut down.
func NewShared(es *Engines) http.Handler { return &apiHandler{shared: es} }

// ReadHeaderTimeout bounds reading a request's headers.
const ReadHeaderTimeout = 10 * time.Second

// Timeouts are the server-side bounds NewServerWith sets. The production
// values are DefaultTimeouts; tests shorten them to see a slow client cut
// off and an idle connection closed within a second.
type Timeouts struct {
	ReadHeader time.Duration // reading the headers
	Read       time.Duration // reading the whole request, headers and body
	Idle       time.Duration // an unused keep-alive connection
}

// DefaultTimeouts are the bounds NewServer uses.
var DefaultTimeouts = Timeouts{ReadHeader: ReadHeaderTimeout, Read: ReadTimeout, Idle: IdleTimeout}

// NewServer is an *http.Server for h with the read and idle timeouts set
// (the API's handler bounds its own writes with WriteTimeout).
func NewServer(h http.Handler) *http.Server { return NewServerWith(h, DefaultTimeouts) }

// NewServerWith is NewServer with the given timeouts. Its event streams
// end when Shutdown begins (endStreamsOnShutdown).
func NewServerWith(h http.Handler, t Timeouts) *http.Server {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, IdleTimeout: t.Idle}
	endStreamsOnShutdown(srv)
	return srv
}

// apiHandler maps /api/memory/<verb> onto engine calls, on an engine
// opened for the request (open) or kept open for the process (shared).
type apiHandler struct {
	open   Opener
	shared *Engines
}

// engine returns the request's engine and what to do when it is done.
func (h *apiHandler) engine(ctx context.Context, tier trust.Tier) (*engine.Engine, func(), error) {
	if h.shared != nil {
		e, err := h.shared.Engine(ctx, tier)
		return e, func() {}, err
	}
	e, err := h.open(ctx, tier)
	if err != nil {
		return nil, nil, err
	}
	return e, func() { e.Close() }, nil
}

func (h *apiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The API has no accounts: it trusts the local machine. Browsers are
	// the way other origins reach a loopback port, so anything a browser
	// adds to cross-site requests is refused: an Origin that is not a page
	// of this machine, a Host that is not a loopback name (DNS rebinding),
	// and a POST body that is not declared JSON (which a page cannot send
	// without a preflight, which gets no CORS grant here).
	if err := loopback.Refusal(r); err != nil {
		errdoc.WriteHTTP(w, err)
		return
	}
	if r.Method == http.MethodPost && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		errdoc.WriteHTTP(w, errcode.Errorf(errcode.InvalidArgument, "POST bodies must be sent as application/json"))
		return
	}
	verb, ok := strings.CutPrefix(r.URL.Path, "/api/memory/")
	if !ok {
		errdoc.WriteHTTP(w, errcode.Errorf(errcode.NotFound, "no route %s (the API lives under /api/memory/)", r.URL.Path))
		return
	}
	tier := trust.Owner
	if as := r.URL.Query().Get("as"); as != "" {
		t, err := trust.ParseTier(as)
		if err != nil || t == trust.Unpaired {
			errdoc.WriteHTTP(w, errcode.Errorf(errcode.InvalidArgument, "as must be owner or paired"))
			return
		}
		tier = t
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(WriteTimeout))
	// The body is read, bounded, before the engine is opened or taken: a
	// slow client holds no engine (and no lock) while it trickles its bytes.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			errdoc.WriteHTTP(w, errcode.Errorf(errcode.InvalidArgument, "request body over %d bytes", MaxBodyBytes))
			return
		}
		errdoc.WriteHTTP(w, errcode.Wrap(errcode.InvalidArgument, err, "read request body"))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	e, done, err := h.engine(r.Context(), tier)
	if err != nil {
		errdoc.WriteHTTP(w, err)
		return
	}
	defer done()
	doc, err := apiCall(r, e, strings.TrimSuffix(verb, "/"))
	if err != nil {
		errdoc.WriteHTTP(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = errdoc.Write(w, doc)
}

func apiCall(r *http.Request, e *engine.Engine, verb string) (any, error) {
	ctx, q := r.Context(), r.URL.Query()
	method := func(want string) error {
		if r.Method != want {
			return errcode.Errorf(errcode.InvalidArgument, "%s /api/memory/%s: use %s", r.Method, verb, want)
		}
		return nil
	}
	switch verb {
	case "status":
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		return e.Status(ctx)
	case "verify":
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		return e.Verify(ctx)
	case "get":
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		return e.Get(ctx, q.Get("ref"))
	case "search":
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		sq := result.SearchQuery{Text: q.Get("q"), Speaker: q.Get("speaker"), Path: q.Get("path"),
			Since: q.Get("since"), Until: q.Get("until"), Sort: q.Get("sort"), Method: q.Get("method"),
			Explain: q.Get("explain") == "true" || q.Get("explain") == "1"}
		if l := q.Get("limit"); l != "" {
			n, err := strconv.Atoi(l)
			if err != nil || n < 1 {
				return nil, errcode.Errorf(errcode.InvalidArgument, "limit must be a positive whole number")
			}
			sq.Limit = n
		}
		rep, err := e.SearchReport(ctx, sq)
		if err != nil {
			return nil, err
		}
		// The CLI's document: results, how they were ranked and why it
		// fell back to BM25 if it did.
		doc := map[string]any{"results": rep.Results, "method": rep.Method}
		if rep.Fallback != "" {
			doc["fallback"] = rep.Fallback
		}
		return doc, nil
	case "recall":
		// What the prompt hook, MCP memory_recall and `recall --json` give an
		// agent for a prompt: the same function, the same document.
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		req := recall.Request{Prompt: q.Get("q"), Cwd: q.Get("cwd")}
		if strings.TrimSpace(req.Prompt) == "" {
			return nil, errcode.Errorf(errcode.InvalidArgument, "q (the prompt) is required")
		}
		if b := q.Get("budget"); b != "" {
			n, err := strconv.Atoi(b)
			if err != nil || n < config.MinRecallBudget {
				return nil, errcode.Errorf(errcode.InvalidArgument, "budget takes a whole number of tokens, at least %d", config.MinRecallBudget)
			}
			req.Budget = n
		}
		return recall.Recall(ctx, e, req)
	case "pending":
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		ps, err := review.Pending(ctx, e)
		return map[string]any{"sources": ps}, err
	case "history":
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		hs, err := audit.History(ctx, e, 0)
		return map[string]any{"entries": hs}, err
	case "core":
		if err := method(http.MethodPost); err != nil {
			return nil, err
		}
		return e.Core(ctx)
	case "update":
		if err := method(http.MethodPost); err != nil {
			return nil, err
		}
		body, err := io.ReadAll(r.Body) // already read and bounded by ServeHTTP
		if err != nil {
			return nil, errcode.Wrap(errcode.InvalidArgument, err, "read body")
		}
		tx, err := result.ParseTransaction(body)
		if err != nil {
			return nil, err
		}
		switch q.Get("propose") {
		case "true", "1":
			// topics/core.md is the owner's: a paired caller proposes.
			return proposals.Submit(ctx, e, tx)
		case "", "false", "0":
		default:
			return nil, errcode.Errorf(errcode.InvalidArgument, "propose must be true or false")
		}
		return e.Update(ctx, tx)
	}
	return nil, errcode.Errorf(errcode.NotFound, "no route /api/memory/%s", verb)
}
