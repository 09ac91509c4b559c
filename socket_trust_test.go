package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/hosts/local"
)

// Issue 24, finding 9: a server on the workspace's socket that is not the
// workspace's own (or is, but answers wrongly) must never make `search`
// print its answer, panic, or ignore --limit: the CLI searches itself and
// prints what it would print with no server at all.
func TestSearchCLI_HostileSocket(t *testing.T) {
	dir, err := os.MkdirTemp("", "st") // short: a socket path has at most 104 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	state := filepath.Join(dir, "state")
	if r := runCLI(t, "", "init", state); r.code != 0 {
		t.Fatal(r.stderr)
	}
	turns := ""
	for i := 0; i < 6; i++ {
		b, _ := json.Marshal(map[string]any{"session": "s1", "provider": "telegram", "id": fmt.Sprint(i + 1), "role": "user",
			"content": fmt.Sprintf("The copper kettle number %d is on the shelf.", i), "time": fmt.Sprintf("2026-08-10T12:0%d:00Z", i),
			"speaker_id": "u1", "speaker_display": "Ann", "tier": "owner"})
		turns += string(b) + "\n"
	}
	for _, args := range [][]string{{"import", "-"}, {"write", "--force"}} {
		if r := runCLI(t, turns, append(args, "--state", state)...); r.code != 0 {
			t.Fatalf("%v: %s %s", args, r.stdout, r.stderr)
		}
	}
	want := map[string]cliRun{}
	for _, limit := range []string{"2", "10"} {
		for _, js := range []string{"--json", "--json=false"} {
			want[limit+js] = runCLI(t, "", "search", "copper", "--limit", limit, js, "--state", state)
		}
	}
	// answer fills in what the client sent, so only the results are wrong.
	answer := func(req map[string]any, results string) string {
		return fmt.Sprintf(`{"ok":true,"build":%q,"workspace_id":%q,"root":%q,"report":{"method":"bm25","results":%s}}`+"\n",
			fmt.Sprint(req["build"]), fmt.Sprint(req["workspace_id"]), fmt.Sprint(req["root"]), results)
	}
	invented := func(n int) string {
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, fmt.Sprintf(`{"kind":"topic","path":"topics/invented.md","anchor":"^%08x","ref":"%08x","score":9,"snippet":"INVENTED","snippet_complete":true}`, i, i))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	cases := []struct {
		name  string
		reply func(req map[string]any) string
	}{
		{"a source without speaker_trusted (a nil pointer in printSearch)", func(req map[string]any) string {
			return answer(req, `[{"kind":"source","path":"sources/telegram/_v2/s1.md","anchor":"source-00000000","ref":"telegram/s1/1","score":9,"snippet":"INVENTED","speaker_label":"Mallory"}]`)
		}},
		{"invented results for another workspace", func(req map[string]any) string {
			req["workspace_id"] = strings.Repeat("f", 32)
			return answer(req, invented(1))
		}},
		{"ignores --limit", func(req map[string]any) string { return answer(req, invented(11)) }},
		{"an over-long answer", func(req map[string]any) string {
			return answer(req, `[{"kind":"topic","path":"topics/x.md","anchor":"^00000001","ref":"00000001","score":9,"snippet":"INVENTED`+strings.Repeat("x", local.MaxAnswerBytes)+`"}]`)
		}},
	}
	sock := local.SocketPath(filepath.Join(state, "memory"))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(sock)
			ln, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				for {
					conn, err := ln.Accept()
					if err != nil {
						return
					}
					var req map[string]any
					if json.NewDecoder(bufio.NewReader(conn)).Decode(&req) == nil {
						conn.Write([]byte(c.reply(req)))
					}
					conn.Close()
				}
			}()
			for key, w := range want {
				limit, js, _ := strings.Cut(key, "-")
				got := runCLI(t, "", "search", "copper", "--limit", limit, "-"+js, "--state", state)
				if got != w {
					t.Errorf("search --limit %s -%s with a hostile socket:\n%+v\nwant\n%+v", limit, js, got, w)
				}
				if strings.Contains(got.stdout, "INVENTED") {
					t.Errorf("printed the hostile server's results")
				}
			}
		})
	}
}
