package httpapi

import (
	"context"
	"net/http"
	"strings"
)

// endStreamsOnShutdown makes srv end its event streams as soon as
// Shutdown begins. An MCP client's standalone SSE stream (a GET asking
// for text/event-stream) never goes idle, so Shutdown, which waits for
// every connection to, would wait it out to its deadline; the stream's
// request context is cancelled instead, and the SDK's handler returns.
// Other requests keep theirs: they finish within the drain.
func endStreamsOnShutdown(srv *http.Server) {
	streams, end := context.WithCancel(context.Background())
	srv.RegisterOnShutdown(end)
	h := srv.Handler
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isEventStream(r) {
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			stop := context.AfterFunc(streams, cancel)
			defer stop()
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
	})
}

// isEventStream reports a request for a long-lived event stream.
func isEventStream(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}
