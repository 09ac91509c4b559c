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
	"syscall"
	"testing"
	"time"
)

// StartServe runs the real binary's `serve` on a loopback port chosen by
// the kernel and returns its base URL; the process gets SIGTERM when the
// test ends and must exit 0 within a few seconds.
func StartServe(t *testing.T, bin, state string) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", state)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("serve after SIGTERM: %v", err)
			}
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Error("serve did not stop within 15 s of SIGTERM")
		}
	})
	select {
	case a := <-addr:
		return "http://" + a
	case err := <-exited:
		t.Fatalf("serve exited before listening: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not say where it listens")
	}
	return ""
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
