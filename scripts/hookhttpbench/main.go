// Command hookhttpbench measures the resident prompt path's CPU on a
// running `scriptorium serve`, against a grep of the prompt's rarest
// word over the same memory, in one run (BENCHMARKS.md, "The prompt hook
// over HTTP"). Per round and prompt, in turn: grep's CPU per run; serve's
// CPU per answered HTTP hook request (its /proc/PID/stat ticks over -n
// requests on one keep-alive connection, after a warm-up, less its idle
// rate); the small hook client's CPU per process and serve's per socket
// answer (the path before --http). Linux only.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8765", "serve's address")
	pid := flag.Int("pid", 0, "serve's process id")
	state := flag.String("state", "", "the state dir serve serves")
	client := flag.String("client", "", "scriptorium-hook beside the CLI serve runs (empty: not measured)")
	prompts := flag.String("prompts", "budget auth service=auth|kafka logs=kafka|中文课 明天=中文课", "PROMPT=RAREST WORD, |-separated")
	n := flag.Int("n", 200, "HTTP requests per measurement")
	runs := flag.Int("runs", 20, "grep and client runs per measurement")
	rounds := flag.Int("rounds", 3, "rounds")
	flag.Parse()
	mem := filepath.Join(*state, "memory")
	idle := idleRate(*pid, 10*time.Second)
	fmt.Printf("serve idle: %.2f ms CPU per s\n", idle*1000)
	fmt.Println("round\tprompt\tload\tgrep ms\thttp ms/req\thttp/grep\tclient ms\tsocket ms/answer\t(client+socket)/grep")
	for r := 1; r <= *rounds; r++ {
		for _, pw := range strings.Split(*prompts, "|") {
			p, word, _ := strings.Cut(pw, "=")
			ev, _ := json.Marshal(map[string]any{"session_id": "bench", "transcript_path": "/nonexistent.jsonl",
				"cwd": "/home/owner/src/heron", "hook_event_name": "UserPromptSubmit", "prompt": p})
			g := median(repeat(*runs, func() float64 {
				return procCPU(exec.Command("grep", "-rliF", word, filepath.Join(mem, "topics"), filepath.Join(mem, "sources")), nil)
			}))
			h := httpCPU(*base, *pid, ev, *n, idle)
			c, s := 0.0, 0.0
			if *client != "" {
				t0, w0 := ticks(*pid), time.Now()
				c = median(repeat(*runs, func() float64 {
					return procCPU(exec.Command(*client, "claude-code", "--state", *state), ev)
				}))
				s = (ticks(*pid) - t0 - idle*time.Since(w0).Seconds()) / float64(*runs)
			}
			fmt.Printf("%d\t%s\t%s\t%.1f\t%.2f\t%.3f\t%.1f\t%.2f\t%.3f\n", r, p, load(), g*1000, h*1000, h/g, c*1000, s*1000, (c+s)/g)
		}
	}
}

// httpCPU is serve's CPU seconds per answered hook request: -n requests
// after 20 to warm up, every answer the first one's bytes.
func httpCPU(base string, pid int, ev []byte, n int, idle float64) float64 {
	var first []byte
	post := func() {
		resp, err := http.Post(base+"/hooks/claude-code", "application/json", bytes.NewReader(ev))
		if err != nil {
			fail(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(body) == 0 {
			fail(fmt.Errorf("answer %d %q", resp.StatusCode, body))
		}
		if first == nil {
			first = body
		} else if !bytes.Equal(body, first) {
			fail(fmt.Errorf("answers differ"))
		}
	}
	for i := 0; i < 20; i++ {
		post()
	}
	t0, w0 := ticks(pid), time.Now()
	for i := 0; i < n; i++ {
		post()
	}
	return (ticks(pid) - t0 - idle*time.Since(w0).Seconds()) / float64(n)
}

// idleRate is serve's CPU seconds per second doing nothing.
func idleRate(pid int, d time.Duration) float64 {
	t0 := ticks(pid)
	time.Sleep(d)
	return (ticks(pid) - t0) / d.Seconds()
}

// ticks is pid's user+system CPU in seconds (/proc/PID/stat, 10 ms ticks).
func ticks(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		fail(err)
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	u, _ := strconv.ParseFloat(f[11], 64)
	s, _ := strconv.ParseFloat(f[12], 64)
	return (u + s) / 100
}

// procCPU runs cmd with stdin and is its user+system CPU seconds.
func procCPU(cmd *exec.Cmd, stdin []byte) float64 {
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		fail(err)
	}
	return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
}

func repeat(n int, f func() float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f()
	}
	return out
}

func median(xs []float64) float64 {
	sort.Float64s(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

func load() string {
	data, _ := os.ReadFile("/proc/loadavg")
	return strings.Fields(string(data))[0]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "hookhttpbench:", err)
	os.Exit(1)
}
