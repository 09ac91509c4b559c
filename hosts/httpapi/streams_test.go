package httpapi

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

// Shutdown ends an event stream that would otherwise hold its connection
// for ever, and does so without waiting out its deadline; a plain request
// in flight is not cancelled by the shutdown and finishes.
func TestShutdownEndsEventStreams(t *testing.T) {
	streaming := make(chan struct{})
	plainIn := make(chan struct{})
	plainOut := make(chan error, 1)
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stream" {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			close(streaming)
			<-r.Context().Done() // as the SDK's standalone stream does
			return
		}
		close(plainIn)
		<-release
		plainOut <- r.Context().Err()
		w.WriteHeader(http.StatusNoContent)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServerWith(h, DefaultTimeouts)
	go func() { _ = srv.Serve(ln) }()
	base := "http://" + ln.Addr().String()

	req, _ := http.NewRequest(http.MethodGet, base+"/stream", nil)
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	<-streaming
	go func() {
		if r, err := http.Post(base+"/plain", "text/plain", nil); err == nil {
			r.Body.Close()
		}
	}()
	<-plainIn

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(ctx) }()
	time.Sleep(50 * time.Millisecond) // the shutdown has begun
	close(release)
	if err := <-plainOut; err != nil {
		t.Errorf("the plain request's context at shutdown: %v, want it live", err)
	}
	if err := <-shut; err != nil {
		t.Fatalf("Shutdown with an event stream open: %v, want the stream ended", err)
	}
}
