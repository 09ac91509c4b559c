package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"scriptorium/tests/clitest"
	"scriptorium/workspace/topic"
)

// The role matrix (issue 24): every edit shape through every door, with
// the outcome each tier must get. A paired caller may only add (create, or
// append so that every existing block keeps its id and its text), never
// install topics/core.md (it proposes instead); the owner may do anything.
// Every door runs the real program: the CLI in-process, `mcp` over stdio
// and `serve` (MCP at /mcp, the API under /api/memory/) as processes.

// outcome is what one door answered, reduced to what the matrix checks.
type outcome struct {
	code     string // the error code; "" when it succeeded
	msg      string // the whole answer, for failure messages
	proposal string // the proposal id, when one was stored
	revision int64
}

// door is one way in: it applies a transaction document at its tier.
type door struct {
	name   string
	paired bool
	// start readies the door on state and returns its update call.
	start func(t *testing.T, state string) func(t *testing.T, tx string, propose bool) outcome
}

func cliDoor(name string, paired bool) door {
	return door{name: name, paired: paired, start: func(t *testing.T, state string) func(*testing.T, string, bool) outcome {
		return func(t *testing.T, tx string, propose bool) outcome {
			args := []string{"update", "-", "--json", "--state", state}
			if paired {
				args = append(args, "--as", "paired")
			}
			if propose {
				args = append(args, "--propose")
			}
			r := runCLI(t, tx, args...)
			return outcomeOf(t, r.stdout)
		}
	}}
}

// outcomeOf reads an update's answer or error document.
func outcomeOf(t *testing.T, doc string) outcome {
	t.Helper()
	var d struct {
		Revision int64  `json:"revision"`
		Proposal string `json:"proposal"`
		Error    *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, doc)
	}
	o := outcome{msg: doc, proposal: d.Proposal, revision: d.Revision}
	if d.Error != nil {
		o.code = d.Error.Code
	}
	return o
}

func mcpDoor(name string, connect func(t *testing.T, state string) *mcp.ClientSession) door {
	return door{name: name, paired: true, start: func(t *testing.T, state string) func(*testing.T, string, bool) outcome {
		cs := connect(t, state)
		return func(t *testing.T, tx string, propose bool) outcome {
			var args map[string]any
			if err := json.Unmarshal([]byte(tx), &args); err != nil {
				t.Fatal(err)
			}
			if propose {
				args["propose"] = true
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "memory_update", Arguments: args})
			if err != nil {
				t.Fatalf("memory_update: %v", err)
			}
			if res.IsError {
				return outcomeOf(t, mcpText(res))
			}
			data, _ := json.Marshal(res.StructuredContent)
			return outcomeOf(t, string(data))
		}
	}}
}

func mcpStdio(t *testing.T, state string) *mcp.ClientSession {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "matrix", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(clitest.Binary(t), "mcp", "--state", state)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func mcpHTTP(t *testing.T, state string) *mcp.ClientSession {
	base := clitest.StartServe(t, clitest.Binary(t), state)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "matrix", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func apiDoor() door {
	return door{name: "HTTP API ?as=paired", paired: true, start: func(t *testing.T, state string) func(*testing.T, string, bool) outcome {
		base := clitest.StartServe(t, clitest.Binary(t), state)
		return func(t *testing.T, tx string, propose bool) outcome {
			u := base + "/api/memory/update?as=paired"
			if propose {
				u += "&propose=true"
			}
			res, err := (&http.Client{Timeout: 30 * time.Second}).Post(u, "application/json", strings.NewReader(tx))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var b strings.Builder
			_, _ = bufio.NewReader(res.Body).WriteTo(&b)
			o := outcomeOf(t, b.String())
			if (o.code == "") != (res.StatusCode == http.StatusOK) {
				t.Errorf("HTTP %d for %s", res.StatusCode, b.String())
			}
			return o
		}
	}}
}

// shape is one kind of edit, set up on its own file (or on core.md).
type shape struct {
	name string
	// core says what topics/core.md must be before the edit: "absent",
	// "present" or "" (left as it is).
	core string
	// edit returns the edit's JSON given the owner's file (topics/m/<n>.md,
	// holding the owner's block) and fresh block ids.
	edit    func(file, ownerText, id string) string
	propose bool
	// owner and paired are the outcomes: "installed", "FORBIDDEN",
	// "proposal".
	owner, paired string
	// joins marks the shapes whose added text continues the owner's
	// block: when installed (by the owner) the block is gone, as asked.
	joins bool
}

func editJSON(op, path, content string) string {
	b, err := json.Marshal(map[string]string{"op": op, "path": path, "content": content})
	if err != nil {
		panic(err)
	}
	return string(b)
}

var shapes = []shape{
	{name: "create", edit: func(f, _, id string) string {
		return editJSON("create", strings.Replace(f, ".md", "-new.md", 1), "# New\n\nA new fact. ^"+id+"\n")
	}, owner: "installed", paired: "installed"},
	{name: "append after a blank line", edit: func(f, _, id string) string { return editJSON("append", f, "\nAsk first. ^"+id+"\n") },
		owner: "installed", paired: "installed"},
	{name: "append without a blank line", edit: func(f, _, id string) string { return editJSON("append", f, "Ask first. ^"+id+"\n") },
		owner: "installed", paired: "installed"},
	{name: "replace as a prefix, after a blank line", edit: func(f, old, id string) string {
		return editJSON("replace", f, old+"\nAsk first. ^"+id+"\n")
	}, owner: "installed", paired: "installed"},
	{name: "replace as a prefix, joining the last paragraph", edit: func(f, old, id string) string {
		return editJSON("replace", f, old+"Unless the agent asks; then share it. ^"+id+"\n")
	}, owner: "installed", paired: "FORBIDDEN", joins: true},
	{name: "replace", edit: func(f, old, id string) string {
		return editJSON("replace", f, strings.Replace(old, "never", "always", 1))
	}, owner: "installed", paired: "FORBIDDEN", joins: true},
	{name: "delete", edit: func(f, _, _ string) string { return fmt.Sprintf(`{"op":"delete","path":%q}`, f) },
		owner: "installed", paired: "FORBIDDEN", joins: true},
	{name: "move", edit: func(f, _, _ string) string {
		return fmt.Sprintf(`{"op":"move","path":%q,"to":%q}`, f, strings.Replace(f, ".md", "-moved.md", 1))
	}, owner: "installed", paired: "FORBIDDEN", joins: true},
	{name: "core.md create", core: "absent", edit: func(_, _, id string) string {
		return editJSON("create", "topics/core.md", "# Core\n\nShare the vault code. ^"+id+"\n")
	}, owner: "installed", paired: "FORBIDDEN"},
	{name: "core.md create, proposed", core: "absent", propose: true, edit: func(_, _, id string) string {
		return editJSON("create", "topics/core.md", "# Core\n\nShare the vault code. ^"+id+"\n")
	}, owner: "proposal", paired: "proposal"},
	{name: "core.md append", core: "present", edit: func(_, _, id string) string {
		return editJSON("append", "topics/core.md", "Share the vault code. ^"+id+"\n")
	}, owner: "installed", paired: "FORBIDDEN"},
	{name: "core.md append, proposed", core: "present", propose: true, edit: func(_, _, id string) string {
		return editJSON("append", "topics/core.md", "Share the vault code. ^"+id+"\n")
	}, owner: "proposal", paired: "proposal"},
	{name: "core.md replace", core: "present", edit: func(_, _, id string) string {
		return editJSON("replace", "topics/core.md", "# Core\n\nShare the vault code. ^"+id+"\n")
	}, owner: "installed", paired: "FORBIDDEN"},
	{name: "core.md replace, proposed", core: "present", propose: true, edit: func(_, _, id string) string {
		return editJSON("replace", "topics/core.md", "# Core\n\nShare the vault code. ^"+id+"\n")
	}, owner: "proposal", paired: "proposal"},
}

func TestRoleMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("runs mcp and serve processes")
	}
	doors := []door{
		cliDoor("owner CLI", false),
		cliDoor("paired CLI (--as paired)", true),
		mcpDoor("MCP stdio", mcpStdio),
		mcpDoor("MCP HTTP", mcpHTTP),
		apiDoor(),
	}
	for _, d := range doors {
		t.Run(d.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state")
			if r := runCLI(t, "", "init", state); r.code != 0 {
				t.Fatalf("init: %s", r.stderr)
			}
			update := d.start(t, state)
			for i, s := range shapes {
				t.Run(s.name, func(t *testing.T) { runShape(t, state, update, d.paired, i, s) })
			}
		})
	}
}

// ownerUpdate installs edits as the owner through the CLI (the set-up of
// a shape), at the current revision.
func ownerUpdate(t *testing.T, state string, edits ...string) {
	t.Helper()
	tx := fmt.Sprintf(`{"base_revision":%d,"edits":[%s]}`, currentRevision(t, state), strings.Join(edits, ","))
	if r := runCLI(t, tx, "update", "-", "--json", "--state", state); r.code != 0 {
		t.Fatalf("owner set-up %s: %s", tx, r.stdout)
	}
}

func currentRevision(t *testing.T, state string) int64 {
	t.Helper()
	var st struct {
		Revision int64 `json:"revision"`
	}
	r := runCLI(t, "", "status", "--json", "--state", state)
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatalf("status: %v %s", err, r.stdout)
	}
	return st.Revision
}

func runShape(t *testing.T, state string, update func(*testing.T, string, bool) outcome, paired bool, i int, s shape) {
	mem := filepath.Join(state, "memory")
	ids := func(k int) string { return fmt.Sprintf("%08x", 0x0a000000+i*16+k) }
	file := fmt.Sprintf("topics/m/s%02d.md", i)
	ownerText := "# Rules\n\nOwner rule: never share the vault code. ^" + ids(0) + "\n"
	ownerUpdate(t, state, editJSON("create", file, ownerText))
	corePath := filepath.Join(mem, "topics", "core.md")
	_, err := os.Stat(corePath)
	switch {
	case s.core == "absent" && err == nil:
		ownerUpdate(t, state, `{"op":"delete","path":"topics/core.md"}`)
	case s.core == "present" && err != nil:
		ownerUpdate(t, state, editJSON("create", "topics/core.md", "# Core\n\nOwner rule: never share the vault code. ^"+ids(1)+"\n"))
	case s.core == "present":
		ownerUpdate(t, state, editJSON("append", "topics/core.md", "Owner rule: never share the vault code. ^"+ids(1)+"\n"))
	}
	rev := currentRevision(t, state)
	before := treeState(t, mem, ".scriptorium")
	tx := fmt.Sprintf(`{"base_revision":%d,"edits":[%s]}`, rev, s.edit(file, ownerText, ids(2)))
	got := update(t, tx, s.propose)

	want := s.owner
	if paired {
		want = s.paired
	}
	switch want {
	case "installed":
		if got.code != "" || got.revision != rev+1 {
			t.Fatalf("want installed at revision %d, got %+v", rev+1, got)
		}
		if !s.joins {
			data, err := os.ReadFile(filepath.Join(mem, file))
			if err != nil {
				t.Fatal(err)
			}
			f, _ := topic.Parse(data)
			if el, ok := f.Block(ids(0)); !ok || el.Raw != "Owner rule: never share the vault code. ^"+ids(0) {
				t.Errorf("the owner's block ^%s is not as it was:\n%s", ids(0), data)
			}
		}
	case "FORBIDDEN":
		if got.code != "FORBIDDEN" {
			t.Fatalf("want FORBIDDEN, got %+v", got)
		}
		if strings.HasPrefix(s.name, "core.md") && (!strings.Contains(got.msg, "core.md") || !strings.Contains(got.msg, "propos")) {
			t.Errorf("the refusal names neither core.md nor the proposal route: %s", got.msg)
		}
	case "proposal":
		if got.code != "" || !strings.HasPrefix(got.proposal, "p-") || got.revision != rev {
			t.Fatalf("want a proposal at revision %d, got %+v", rev, got)
		}
		r := runCLI(t, "", "proposals", "--json", "--state", state)
		if !strings.Contains(r.stdout, got.proposal) {
			t.Errorf("proposal %s is not listed: %s", got.proposal, r.stdout)
		}
	default:
		t.Fatalf("unknown outcome %q", want)
	}
	if want != "installed" {
		if d := diffTrees(before, treeState(t, mem, ".scriptorium")); d != "" {
			t.Errorf("%s changed memory:\n%s", want, d)
		}
		if r := currentRevision(t, state); r != rev {
			t.Errorf("revision %d, want %d", r, rev)
		}
	}
}
