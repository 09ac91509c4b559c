package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// The bounds tests run a real *http.Server (NewServerWith) on a loopback
// port with short timeouts and talk to it over raw TCP, so that what is
// measured is the server's behaviour and not the client library's. Every
// wait is bounded; the server is shut down when the test ends.

// boundsServer serves h on 127.0.0.1 with timeouts t and returns its
// address.
func boundsServer(t *testing.T, h http.Handler, to Timeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServerWith(h, to)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			_ = srv.Close()
		}
		<-done
	})
	return ln.Addr().String()
}

// countingOpener counts engine opens; with a dir it opens the real engine
// there, without one every open is an error (and a test failure).
func countingOpener(t *testing.T, dir string, n *atomic.Int64) Opener {
	return func(ctx context.Context, tier trust.Tier) (*engine.Engine, error) {
		n.Add(1)
		if dir == "" {
			t.Errorf("the engine was opened")
			return nil, errcode.Errorf(errcode.IO, "no engine in this test")
		}
		return engine.Open(ctx, engine.Options{StateDir: dir, Tier: tier, Interactive: true})
	}
}

// readResponse reads one HTTP response from br with a deadline on conn.
func readResponse(t *testing.T, conn net.Conn, br *bufio.Reader, within time.Duration) (*http.Response, []byte) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(within))
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("read response body: %v", err)
	}
	return res, body
}

func errorCode(body []byte) string {
	var doc struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &doc)
	return doc.Error.Code
}

// TestBounds_ProductionDefaults pins the production timeouts: the test
// hook must not change them.
func TestBounds_ProductionDefaults(t *testing.T) {
	srv := NewServer(http.NotFoundHandler())
	if srv.ReadHeaderTimeout != 10*time.Second || srv.ReadTimeout != 30*time.Second || srv.IdleTimeout != 60*time.Second {
		t.Fatalf("NewServer timeouts: header %v, read %v, idle %v", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout)
	}
	if MaxBodyBytes != 16<<20 || WriteTimeout != 2*time.Minute {
		t.Fatalf("MaxBodyBytes %d, WriteTimeout %v", MaxBodyBytes, WriteTimeout)
	}
}

// TestBounds_OversizedBodyRefusedBeforeOpen sends a body one byte over
// MaxBodyBytes, declared (Content-Length) and undeclared (chunked): the
// answer is 400 INVALID_ARGUMENT and the engine is never opened. A body of
// exactly MaxBodyBytes does reach the engine.
func TestBounds_OversizedBodyRefusedBeforeOpen(t *testing.T) {
	var opens atomic.Int64
	addr := boundsServer(t, New(countingOpener(t, "", &opens)), Timeouts{ReadHeader: 5 * time.Second, Read: 20 * time.Second, Idle: 5 * time.Second})
	client := &http.Client{Timeout: 20 * time.Second}
	post := func(body io.Reader, size int64) (int, string) {
		t.Helper()
		req, err := http.NewRequest("POST", "http://"+addr+"/api/memory/update", body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = size // -1: chunked
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("POST %d bytes: %v", size, err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res.StatusCode, errorCode(data)
	}
	big := bytes.Repeat([]byte(" "), MaxBodyBytes+1)
	if status, code := post(bytes.NewReader(big), int64(len(big))); status != 400 || code != "INVALID_ARGUMENT" {
		t.Errorf("declared body of %d bytes: %d %s, want 400 INVALID_ARGUMENT", len(big), status, code)
	}
	if status, code := post(io.MultiReader(bytes.NewReader(big)), -1); status != 400 || code != "INVALID_ARGUMENT" {
		t.Errorf("chunked body of %d bytes: %d %s, want 400 INVALID_ARGUMENT", len(big), status, code)
	}
	if n := opens.Load(); n != 0 {
		t.Fatalf("the engine was opened %d times for oversized bodies", n)
	}
	// The bound is exact: MaxBodyBytes itself is read and handed on (the
	// stub opener then fails the request, which is all this needs).
	t.Run("at the bound", func(t *testing.T) {
		var opens atomic.Int64
		addr := boundsServer(t, New(func(context.Context, trust.Tier) (*engine.Engine, error) {
			opens.Add(1)
			return nil, errcode.Errorf(errcode.NotConfigured, "stub")
		}), DefaultTimeouts)
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/memory/update", bytes.NewReader(big[:MaxBodyBytes]))
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if opens.Load() != 1 || res.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("body of exactly MaxBodyBytes: %d opens, status %d", opens.Load(), res.StatusCode)
		}
	})
}

// TestBounds_TrickledBodyIsCutOff sends a request whose body arrives one
// byte every 50 ms. The server's read timeout ends it (400
// INVALID_ARGUMENT, then the connection closes) without opening the
// engine, and while it trickles the server keeps answering other
// requests.
func TestBounds_TrickledBodyIsCutOff(t *testing.T) {
	var opens atomic.Int64
	dir := t.TempDir()
	const read = 600 * time.Millisecond
	addr := boundsServer(t, New(countingOpener(t, dir, &opens)), Timeouts{ReadHeader: read, Read: read, Idle: 5 * time.Second})

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := fmt.Fprintf(conn, "POST /api/memory/update HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", addr); err != nil {
		t.Fatal(err)
	}
	// Trickle until the server stops listening, at most 5 s (100 bytes).
	trickleDone := make(chan time.Duration, 1)
	go func() {
		for i := 0; i < 100; i++ {
			_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
			if _, err := conn.Write([]byte(" ")); err != nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		trickleDone <- time.Since(start)
	}()

	// Meanwhile other clients are served, each within a second.
	client := &http.Client{Timeout: 5 * time.Second}
	for i := 0; i < 3; i++ {
		t0 := time.Now()
		res, err := client.Get("http://" + addr + "/api/memory/status")
		if err != nil {
			t.Fatalf("status during the trickle: %v", err)
		}
		res.Body.Close()
		if res.StatusCode != 200 || time.Since(t0) > 3*time.Second {
			t.Fatalf("status during the trickle: %d after %v", res.StatusCode, time.Since(t0))
		}
		time.Sleep(100 * time.Millisecond)
	}
	servedOthers := opens.Load()

	br := bufio.NewReader(conn)
	res, body := readResponse(t, conn, br, 5*time.Second)
	cut := time.Since(start)
	if res.StatusCode != 400 || errorCode(body) != "INVALID_ARGUMENT" {
		t.Errorf("trickled body: %d %s, want 400 INVALID_ARGUMENT", res.StatusCode, body)
	}
	if cut < read/2 || cut > read+3*time.Second {
		t.Errorf("the trickled request was cut off after %v; the read timeout is %v", cut, read)
	}
	// The server closes the connection: the rest of the body is not read.
	_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) && !isReset(err) {
		t.Errorf("the connection stayed open after the cut-off: %v", err)
	}
	if took := <-trickleDone; took > 5*time.Second+time.Second {
		t.Errorf("the trickle went on for %v", took)
	}
	if opens.Load() != servedOthers {
		t.Errorf("the trickled request opened the engine")
	}

	// And the server still serves afterwards.
	res2, err := client.Get("http://" + addr + "/api/memory/status")
	if err != nil {
		t.Fatal(err)
	}
	res2.Body.Close()
	if res2.StatusCode != 200 {
		t.Errorf("status after the cut-off: %d", res2.StatusCode)
	}
}

func isReset(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "connection reset") || strings.Contains(err.Error(), "broken pipe"))
}

// TestBounds_IdleConnectionClosed keeps a connection open after one
// answered request: the server closes it after IdleTimeout, not before.
func TestBounds_IdleConnectionClosed(t *testing.T) {
	var opens atomic.Int64
	const idle = 400 * time.Millisecond
	addr := boundsServer(t, New(countingOpener(t, t.TempDir(), &opens)), Timeouts{ReadHeader: 5 * time.Second, Read: 5 * time.Second, Idle: idle})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	ask := func() {
		t.Helper()
		if _, err := fmt.Fprintf(conn, "GET /api/memory/status HTTP/1.1\r\nHost: %s\r\n\r\n", addr); err != nil {
			t.Fatal(err)
		}
		res, _ := readResponse(t, conn, br, 5*time.Second)
		if res.StatusCode != 200 || res.Close {
			t.Fatalf("status: %d (close %v)", res.StatusCode, res.Close)
		}
	}
	// A connection used more often than IdleTimeout stays open.
	ask()
	time.Sleep(idle / 2)
	ask()
	idleFrom := time.Now()
	_ = conn.SetReadDeadline(time.Now().Add(idle + 3*time.Second))
	_, err = br.ReadByte()
	closedAfter := time.Since(idleFrom)
	if !errors.Is(err, io.EOF) && !isReset(err) {
		t.Fatalf("idle connection: %v after %v, want it closed by the server", err, closedAfter)
	}
	if closedAfter < idle*3/4 || closedAfter > idle+2*time.Second {
		t.Errorf("the idle connection was closed after %v; IdleTimeout is %v", closedAfter, idle)
	}
}
