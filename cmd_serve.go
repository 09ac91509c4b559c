package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/trust"
)

// runServe serves the engine over a local HTTP API under /api/memory/.
// It listens on loopback unless --addr says otherwise.
func runServe(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	addr := inv.flag("addr")
	if addr == "" {
		addr = "127.0.0.1:8765"
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	h := &apiHandler{open: func(ctx context.Context, tier trust.Tier) (*engine.Engine, error) {
		return engine.Open(ctx, engine.Options{StateDir: dir, Tier: tier, Interactive: true})
	}}
	// Refuse before listening when memory is off, so nothing is touched.
	if e, err := h.open(ctx, trust.Owner); err != nil {
		return err
	} else {
		e.Close()
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return engine.Wrap(engine.CodeIO, err, "listen on %s", addr)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(inv.stderr, "scriptorium: serving /api/memory/ on http://%s\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shutdown, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return engine.Wrap(engine.CodeIO, err, "serve")
	}
	return nil
}

// apiHandler maps /api/memory/<verb> onto engine calls; each request opens
// the engine, so CLI, TUI and API take turns on the same workspace.
type apiHandler struct {
	open func(ctx context.Context, tier trust.Tier) (*engine.Engine, error)
}

func (h *apiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The API has no accounts: it trusts the local machine. Browsers are
	// the way other origins reach a loopback port, so anything a browser
	// adds to cross-site requests is refused: an Origin header, a Host that
	// is not a loopback name (DNS rebinding), and a POST body that is not
	// declared JSON (which a page cannot send without a preflight).
	if r.Header.Get("Origin") != "" {
		writeAPIError(w, engine.Errorf(engine.CodeForbidden, "cross-origin requests are refused"))
		return
	}
	if !loopbackHost(r.Host) {
		writeAPIError(w, engine.Errorf(engine.CodeForbidden, "host %q is not a loopback name", r.Host))
		return
	}
	if r.Method == http.MethodPost && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		writeAPIError(w, engine.Errorf(engine.CodeInvalidArgument, "POST bodies must be sent as application/json"))
		return
	}
	verb, ok := strings.CutPrefix(r.URL.Path, "/api/memory/")
	if !ok {
		writeAPIError(w, engine.Errorf(engine.CodeNotFound, "no route %s (the API lives under /api/memory/)", r.URL.Path))
		return
	}
	tier := trust.Owner
	if as := r.URL.Query().Get("as"); as != "" {
		t, err := trust.ParseTier(as)
		if err != nil || t == trust.Unpaired {
			writeAPIError(w, engine.Errorf(engine.CodeInvalidArgument, "as must be owner or paired"))
			return
		}
		tier = t
	}
	e, err := h.open(r.Context(), tier)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	defer e.Close()
	doc, err := apiCall(r, e, strings.TrimSuffix(verb, "/"))
	if err != nil {
		writeAPIError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = writeJSON(w, doc)
}

func apiCall(r *http.Request, e *engine.Engine, verb string) (any, error) {
	ctx, q := r.Context(), r.URL.Query()
	method := func(want string) error {
		if r.Method != want {
			return engine.Errorf(engine.CodeInvalidArgument, "%s /api/memory/%s: use %s", r.Method, verb, want)
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
		sq := engine.SearchQuery{Text: q.Get("q"), Speaker: q.Get("speaker"), Path: q.Get("path"),
			Since: q.Get("since"), Until: q.Get("until"), Sort: q.Get("sort"), Method: q.Get("method")}
		if l := q.Get("limit"); l != "" {
			n, err := strconv.Atoi(l)
			if err != nil || n < 1 {
				return nil, engine.Errorf(engine.CodeInvalidArgument, "limit must be a positive whole number")
			}
			sq.Limit = n
		}
		res, err := e.Search(ctx, sq)
		return map[string]any{"results": res}, err
	case "pending":
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		ps, err := e.Pending(ctx)
		return map[string]any{"sources": ps}, err
	case "history":
		if err := method(http.MethodGet); err != nil {
			return nil, err
		}
		hs, err := e.History(ctx, 0)
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
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			return nil, engine.Wrap(engine.CodeInvalidArgument, err, "read body")
		}
		tx, err := engine.ParseTransaction(body)
		if err != nil {
			return nil, err
		}
		return e.Update(ctx, tx)
	}
	return nil, engine.Errorf(engine.CodeNotFound, "no route /api/memory/%s", verb)
}

// apiStatus maps the closed set of error codes onto HTTP statuses.
func apiStatus(c engine.Code) int {
	switch c {
	case engine.CodeInvalidArgument:
		return http.StatusBadRequest
	case engine.CodeNotFound:
		return http.StatusNotFound
	case engine.CodeConflict:
		return http.StatusConflict
	case engine.CodeLockBusy:
		return http.StatusLocked
	case engine.CodeRejected:
		return http.StatusUnprocessableEntity
	case engine.CodeForbidden:
		return http.StatusForbidden
	case engine.CodeMemoryDisabled, engine.CodeNotConfigured:
		return http.StatusServiceUnavailable
	case engine.CodeModelUnavailable, engine.CodeModelAuth, engine.CodeModelConfig, engine.CodeModelOutputInvalid:
		return http.StatusBadGateway
	}
	return http.StatusInternalServerError
}

func writeAPIError(w http.ResponseWriter, err error) {
	e := engine.AsError(err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(apiStatus(e.Code))
	_ = json.NewEncoder(w).Encode(map[string]jsonError{"error": {
		Code: e.Code, Message: e.Message, Retryable: e.Retryable(), Violations: e.Violations}})
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
