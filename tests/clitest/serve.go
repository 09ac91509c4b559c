package clitest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// StartServe runs the real binary's `serve` on a loopback port chosen by
// the kernel and returns its base URL; the process gets SIGTERM when the
// test ends and must exit 0 within a few seconds.
func StartServe(t *testing.T, bin, state string) string {
	t.Helper()
	base, stop := StartServeStop(t, bin, state)
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	return base
}

// StartServeStop is StartServe with the stop in the test's hands: stop
// sends SIGTERM and waits for the exit, at most 15 s (then it kills), and
// reports anything but a clean exit. It may be called more than once; the
// test's end calls it too (killing a process still running).
func StartServeStop(t *testing.T, bin, state string) (base string, stop func() error) {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", state)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var exitErr error
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		exitErr = cmd.Wait()
		close(exited)
	}()
	var once sync.Once
	var stopErr error
	stop = func() error {
		once.Do(func() {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			t0 := time.Now()
			select {
			case <-exited:
				if exitErr != nil {
					stopErr = fmt.Errorf("serve after SIGTERM: %v (%v after the signal)", exitErr, time.Since(t0).Round(time.Millisecond))
				}
			case <-time.After(15 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
				stopErr = fmt.Errorf("serve did not stop within 15 s of SIGTERM")
			}
		})
		return stopErr
	}
	t.Cleanup(func() { _ = stop() })
	select {
	case a := <-addr:
		return "http://" + a, stop
	case <-exited:
		t.Fatalf("serve exited before listening: %v", exitErr)
	case <-time.After(30 * time.Second):
		_ = stop()
		t.Fatal("serve did not say where it listens")
	}
	return "", stop
}

// APIDo makes one bounded request and decodes the JSON answer.
func APIDo(t *testing.T, method, u, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	client := &http.Client{Timeout: 30 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s %s: not JSON: %v\n%s", method, u, err, data)
	}
	return res.StatusCode, doc
}

// RefsOf lists the refs of a search document's results.
func RefsOf(doc map[string]any) []string {
	var refs []string
	rs, _ := doc["results"].([]any)
	for _, r := range rs {
		if m, ok := r.(map[string]any); ok {
			refs = append(refs, fmt.Sprint(m["ref"]))
		}
	}
	return refs
}
