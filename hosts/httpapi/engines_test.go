package httpapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"scriptorium/engine"
	"scriptorium/errcode"
	"scriptorium/trust"
)

func getStatus(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// A shared server opens one engine per tier, however many requests come,
// concurrent first ones included.
func TestEngines_OneEnginePerTier(t *testing.T) {
	dir := t.TempDir()
	var opens atomic.Int64
	es := NewEngines(dir, countingOpener(t, dir, &opens))
	srv := httptest.NewServer(NewShared(es))
	defer srv.Close()
	defer es.Close()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code := getStatus(t, srv.URL+"/api/memory/status"); code != 200 {
				t.Errorf("status: %d", code)
			}
		}()
	}
	wg.Wait()
	for i := 0; i < 3; i++ {
		if code := getStatus(t, srv.URL+"/api/memory/status?as=paired"); code != 200 {
			t.Errorf("paired status: %d", code)
		}
	}
	if n := opens.Load(); n != 2 {
		t.Errorf("%d engines opened for 11 requests at two tiers, want 2", n)
	}
}

// config.toml is read on every request: memory switched off answers
// MEMORY_DISABLED with the engine still open, and on again it answers.
func TestEngines_FollowsConfig(t *testing.T) {
	dir := t.TempDir()
	var opens atomic.Int64
	es := NewEngines(dir, countingOpener(t, dir, &opens))
	defer es.Close()
	srv := httptest.NewServer(NewShared(es))
	defer srv.Close()
	if code := getStatus(t, srv.URL+"/api/memory/status"); code != 200 {
		t.Fatalf("status: %d", code)
	}
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("[memory]\nbackend = \"none\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := getStatus(t, srv.URL+"/api/memory/status"); code != http.StatusServiceUnavailable {
		t.Errorf("status with memory off: %d, want 503", code)
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if code := getStatus(t, srv.URL+"/api/memory/status"); code != 200 {
		t.Errorf("status with memory on again: %d", code)
	}
	if n := opens.Load(); n != 1 {
		t.Errorf("%d opens, want 1", n)
	}
}

// An engine that fails to open is not kept: the next request tries again.
// After Close every request fails and the engines are closed.
func TestEngines_FailedOpenRetriedAndClose(t *testing.T) {
	dir := t.TempDir()
	var opens atomic.Int64
	var opened []*engine.Engine
	es := NewEngines(dir, func(ctx context.Context, tier trust.Tier) (*engine.Engine, error) {
		if opens.Add(1) == 1 {
			return nil, errcode.Errorf(errcode.LockBusy, "busy")
		}
		e, err := engine.Open(ctx, engine.Options{StateDir: dir, Tier: tier})
		opened = append(opened, e)
		return e, err
	})
	ctx := context.Background()
	if _, err := es.Engine(ctx, trust.Owner); errcode.As(err).Code != errcode.LockBusy {
		t.Fatalf("first open: %v", err)
	}
	e, err := es.Engine(ctx, trust.Owner)
	if err != nil || e == nil {
		t.Fatalf("second open: %v", err)
	}
	if again, _ := es.Engine(ctx, trust.Owner); again != e {
		t.Error("a third request got another engine")
	}
	if err := es.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := es.Engine(ctx, trust.Owner); err == nil {
		t.Error("Engine after Close succeeded")
	}
	if _, err := opened[0].Status(ctx); err == nil {
		t.Error("the engine still answers after Close")
	}
}
