package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"scriptorium/engine"
	"scriptorium/errcode"
	"scriptorium/hosts/loopback"
)

// HTTPHandler serves MCP over streamable HTTP, to be mounted at /mcp by
// `scriptorium serve`. Like the /api/memory/ API it has no accounts and
// trusts the local machine, so it refuses what a browser adds when a web
// page elsewhere reaches for a loopback port: an Origin that is not a
// page of this machine (localhost, 127.0.0.1 or [::1], any port), and a
// Host that is not a loopback name (DNS rebinding). A JSON-RPC batch gets
// the answer it gets over stdio.
func HTTPHandler(eng *engine.Engine, opts Options) http.Handler {
	srv := NewServer(eng, opts)
	limit := opts.maxMessage()
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{
			// Bodies are bounded below, with an answer the client can read.
			MaxRequestBodyBytes: int64(limit) + 1,
			// A client that vanished without DELETE must not hold a session
			// forever in a long-running serve.
			SessionTimeout: time.Hour,
		})
	return &httpGuard{next: sdk, limit: limit}
}

type httpGuard struct {
	next  http.Handler
	limit int
}

func (h *httpGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" && !loopback.Origin(o) {
		writeHTTPError(w, http.StatusForbidden, errcode.Errorf(errcode.Forbidden, "requests from origin %q are refused: only pages of this machine (localhost, 127.0.0.1, [::1]) may call", o))
		return
	}
	if !loopback.Host(r.Host) {
		writeHTTPError(w, http.StatusForbidden, errcode.Errorf(errcode.Forbidden, "host %q is not a loopback name", r.Host))
		return
	}
	if r.Method == http.MethodPost && r.Body != nil {
		// Read the bounded body here rather than let the SDK hit its limit:
		// its 413 is plain text, which the SDK client takes as a broken
		// connection, while a JSON-RPC error under the request's id fails
		// just that call and the session goes on.
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(h.limit)))
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			id, _ := scanID(body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			_, _ = w.Write(errorResponse(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message is larger than the %d-byte limit; it was not read", h.limit)))
			return
		}
		if err != nil {
			writeHTTPError(w, http.StatusBadRequest, errcode.Wrap(errcode.InvalidArgument, err, "read request body"))
			return
		}
		if isBatch(body) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(errorResponse(nil, jsonrpc.CodeInvalidRequest, batchRefused))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	h.next.ServeHTTP(w, r)
}

// writeHTTPError answers a refused request with the SPEC §12 document.
func writeHTTPError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(json.RawMessage(errorDocument(err)))
}
