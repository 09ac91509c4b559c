package local

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/result"
)

// Issue 24, finding 9: the client trusted whoever answered on the socket.

func waitReady(t *testing.T, srv *Server) {
	t.Helper()
	if srv == nil {
		t.Fatal("no server")
	}
	for start := time.Now(); !srv.Ready(); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatal("the server never got ready")
		}
	}
}

// A state dir moved while its server runs: the socket moves with it, but
// the server still reads the old path, where another workspace may now
// be. The client in the moved dir must not take that answer.
func TestSearch_MovedStateDir(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	state := shortState(t)
	e := openWith(t, state, "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
	srv := Serve(context.Background(), e)
	waitReady(t, srv)
	defer srv.Close()
	moved := state + "-moved"
	if err := os.Rename(state, moved); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(moved)
	// Another workspace where the old one was.
	openWith(t, state, "# Facts\n\nThe owner keeps wasps in the shed. ^0000000b\n")
	if rep, ok := Search(filepath.Join(moved, "memory"), result.SearchQuery{Text: "bees wasps"}, time.Second); ok {
		t.Fatalf("the moved workspace took the answer of the server of %s: %+v", state, rep.Results)
	}
}

// A socket hard-linked into another workspace's runtime dir answers for
// the workspace it was made in.
func TestSearch_HardLinkedSocket(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	a := openWith(t, shortState(t), "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
	b := openWith(t, shortState(t), "# Facts\n\nThe owner keeps wasps in the shed. ^0000000b\n")
	srv := Serve(context.Background(), a)
	waitReady(t, srv)
	defer srv.Close()
	if err := os.Link(SocketPath(a.Root()), SocketPath(b.Root())); err != nil {
		t.Fatal(err)
	}
	if rep, ok := Search(b.Root(), result.SearchQuery{Text: "bees"}, time.Second); ok {
		t.Fatalf("workspace B took workspace A's answer: %+v", rep.Results)
	}
	// A's own client is still answered.
	if _, ok := Search(a.Root(), result.SearchQuery{Text: "bees"}, time.Second); !ok {
		t.Error("the server no longer answers its own workspace")
	}
}

// fakeServer answers every request on the socket of memDir with what
// answer makes of it (the request as the client sent it).
func fakeServer(t *testing.T, memDir string, answer func(req map[string]any) []byte) {
	t.Helper()
	path := SocketPath(memDir)
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				var req map[string]any
				if json.NewDecoder(bufio.NewReader(c)).Decode(&req) != nil {
					return
				}
				c.Write(answer(req))
			}()
		}
	}()
}

// echo is a well-formed answer naming what the client asked about (its
// build, workspace and root), so that only the results can be wrong.
func echo(req map[string]any, results string) []byte {
	return []byte(fmt.Sprintf(`{"ok":true,"build":%q,"workspace_id":%q,"root":%q,"report":{"method":"bm25","results":%s}}`+"\n",
		req["build"], req["workspace_id"], req["root"], results))
}

func resultLine(i int) string {
	return fmt.Sprintf(`{"kind":"topic","path":"topics/facts.md","anchor":"^%08x","ref":"%08x","score":1,"time":"","snippet":"invented %d","snippet_complete":true}`, i, i, i)
}

func TestSearch_HostileServer(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	some := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = resultLine(i)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	cases := []struct {
		name   string
		limit  int
		answer func(req map[string]any) []byte
	}{
		{"invented results, nothing echoed", 0, func(map[string]any) []byte {
			return []byte(`{"ok":true,"report":{"method":"bm25","results":` + some(2) + `}}` + "\n")
		}},
		{"another workspace", 0, func(req map[string]any) []byte {
			req["workspace_id"] = strings.Repeat("0", 32)
			return echo(req, some(2))
		}},
		{"another root", 0, func(req map[string]any) []byte {
			req["root"] = "/elsewhere/memory"
			return echo(req, some(2))
		}},
		{"another build", 0, func(req map[string]any) []byte {
			req["build"] = "build B"
			return echo(req, some(2))
		}},
		{"a source without speaker_trusted", 0, func(req map[string]any) []byte {
			return echo(req, `[{"kind":"source","path":"sources/x/_v2/y.md","anchor":"source-00000000","ref":"x/y/1","score":1,"snippet":"s","speaker_label":"Mallory"}]`)
		}},
		{"a null result", 0, func(req map[string]any) []byte { return echo(req, `[null]`) }},
		{"an unknown kind", 0, func(req map[string]any) []byte {
			return echo(req, `[{"kind":"secret","path":"topics/facts.md","anchor":"^00000001","ref":"00000001","score":1}]`)
		}},
		{"a path outside the workspace", 0, func(req map[string]any) []byte {
			return echo(req, `[{"kind":"topic","path":"../../etc/passwd","anchor":"^00000001","ref":"00000001","score":1}]`)
		}},
		{"no results field", 0, func(req map[string]any) []byte {
			return []byte(fmt.Sprintf(`{"ok":true,"build":%q,"workspace_id":%q,"root":%q}`+"\n", req["build"], req["workspace_id"], req["root"]))
		}},
		{"truncated", 0, func(req map[string]any) []byte { return echo(req, some(2))[:40] }},
		{"not JSON", 0, func(map[string]any) []byte { return []byte("HTTP/1.1 200 OK\r\n\r\n") }},
		{"over 10 results without --limit", 0, func(req map[string]any) []byte { return echo(req, some(11)) }},
		{"ignores --limit 3", 3, func(req map[string]any) []byte { return echo(req, some(4)) }},
		{"an endless answer", 0, func(req map[string]any) []byte {
			return echo(req, `[{"kind":"topic","path":"topics/facts.md","anchor":"^00000001","ref":"00000001","score":1,"snippet":"`+strings.Repeat("x", MaxAnswerBytes)+`"}]`)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := openWith(t, shortState(t), "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
			fakeServer(t, e.Root(), c.answer)
			start := time.Now()
			if rep, ok := Search(e.Root(), result.SearchQuery{Text: "bees", Limit: c.limit}, 2*time.Second); ok {
				t.Errorf("took the answer: %+v", rep)
			}
			if d := time.Since(start); d > 20*time.Second { // its 2 s deadline, with room for a loaded machine: a hang is what fails
				t.Errorf("the client took %v", d)
			}
		})
	}
	// The same fake with good results is answered: the checks above are
	// what refused, not the fake.
	e := openWith(t, shortState(t), "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
	fakeServer(t, e.Root(), func(req map[string]any) []byte { return echo(req, some(2)) })
	if _, ok := Search(e.Root(), result.SearchQuery{Text: "bees"}, 2*time.Second); !ok {
		t.Error("a well-formed answer for this workspace and build was refused")
	}
}

// The server reads at most MaxRequestBytes of a request.
func TestServe_BoundsTheRequest(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	e := openWith(t, shortState(t), "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
	srv := Serve(context.Background(), e)
	waitReady(t, srv)
	defer srv.Close()
	c, err := net.Dial("unix", SocketPath(e.Root()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	// A request that never ends: the server must stop reading and close.
	go func() {
		if _, err := c.Write([]byte(`{"build":"build A","op":"search","query":{"text":"`)); err != nil {
			return
		}
		chunk := []byte(strings.Repeat("b", 64<<10))
		for {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	}()
	buf := make([]byte, 1)
	start := time.Now()
	_, err = c.Read(buf)
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("the server kept reading an endless request (%v, %v)", err, time.Since(start))
	}
	if srv.Answered() != 0 {
		t.Error("answered an endless request")
	}
}

// TestSearch_SlowServer: a server that answers late, trickles its answer
// byte by byte, or takes the connection and never reads it costs the
// client its timeout and no more, and its answer is never taken.
func TestSearch_SlowServer(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	cases := []struct {
		name  string
		serve func(c net.Conn)
	}{
		{"answers after 5 s", func(c net.Conn) {
			var req map[string]any
			if json.NewDecoder(bufio.NewReader(c)).Decode(&req) == nil {
				time.Sleep(5 * time.Second)
				c.Write(echo(req, "[]"))
			}
		}},
		{"trickles the answer", func(c net.Conn) {
			var req map[string]any
			if json.NewDecoder(bufio.NewReader(c)).Decode(&req) == nil {
				for _, b := range echo(req, "[]") {
					if _, err := c.Write([]byte{b}); err != nil {
						return
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
		}},
		{"never reads", func(c net.Conn) { time.Sleep(5 * time.Second) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := openWith(t, shortState(t), "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
			path := SocketPath(e.Root())
			os.Remove(path)
			ln, err := net.Listen("unix", path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ln.Close() })
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					go func() {
						defer c.Close()
						tc.serve(c)
					}()
				}
			}()
			start := time.Now()
			if rep, ok := Search(e.Root(), result.SearchQuery{Text: "bees"}, time.Second); ok {
				t.Errorf("took the answer: %+v", rep)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("the client waited %v with a 1 s timeout", d)
			}
		})
	}
}

// TestServe_SlowClientsBlockNoOne: clients that connect and send nothing,
// or trickle half a request, hold no one up: a real client is answered
// meanwhile.
func TestServe_SlowClientsBlockNoOne(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	e := openWith(t, shortState(t), "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
	srv := Serve(context.Background(), e)
	waitReady(t, srv)
	defer srv.Close()
	for i := range 8 {
		c, err := net.Dial("unix", SocketPath(e.Root()))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if i%2 == 1 {
			c.Write([]byte(`{"build":"build A","op":"sea`))
		}
	}
	start := time.Now()
	rep, ok := Search(e.Root(), result.SearchQuery{Text: "bees"}, 2*time.Second)
	if !ok || len(rep.Results) != 1 {
		t.Fatalf("a client beside eight silent ones: %v %+v", ok, rep)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("answered after %v", d)
	}
}
