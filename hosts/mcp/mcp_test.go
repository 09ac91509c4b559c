package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"scriptorium/engine/result"
	"scriptorium/errcode"
)

var toolNames = []string{"memory_get", "memory_recall", "memory_search", "memory_status", "memory_update"}

// TestToolsAndResources drives every tool and resource through the SDK's
// own client, over stdio and over streamable HTTP.
func TestToolsAndResources(t *testing.T) {
	for name, connect := range transports {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			cs := connect(t, f.write, f.opts())
			ctx := context.Background()

			var names []string
			for tool, err := range cs.Tools(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, tool.Name)
				if tool.InputSchema == nil || tool.OutputSchema == nil {
					t.Errorf("%s: input schema %v, output schema %v", tool.Name, tool.InputSchema != nil, tool.OutputSchema != nil)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, toolNames) {
				t.Fatalf("tools %v, want %v", names, toolNames)
			}

			var sr SearchOutput
			structured(t, cs, call(t, cs, "memory_search", map[string]any{"query": "copper", "sort": "date", "limit": 5}), "memory_search", &sr)
			if len(sr.Results) == 0 || !strings.Contains(sr.Results[0].Snippet, "copper") {
				t.Errorf("search copper: %+v", sr.Results)
			}
			structured(t, cs, call(t, cs, "memory_search", map[string]any{"query": "copper", "speaker": "u456"}), "memory_search", &sr)
			for _, r := range sr.Results {
				if r.Kind != "source" || r.SpeakerID == nil || *r.SpeakerID != "u456" {
					t.Errorf("speaker filter let through %+v", r)
				}
			}
			if c := errorCode(t, call(t, cs, "memory_search", map[string]any{"query": "copper", "method": "embedding", "speaker": "u456"})); c != errcode.InvalidArgument {
				t.Errorf("embedding with speaker: %s, want INVALID_ARGUMENT", c)
			}
			if c := errorCode(t, call(t, cs, "memory_search", map[string]any{"query": "copper", "sort": "relevance"})); c != errcode.InvalidArgument {
				t.Errorf("bad sort: %s, want INVALID_ARGUMENT", c)
			}

			var blk result.BlockView
			structured(t, cs, call(t, cs, "memory_get", map[string]any{"ref": "^1a2b3c4d"}), "memory_get", &blk)
			if blk.Kind != "topic" || blk.Path != "topics/core.md" || len(blk.Footnotes) != 1 {
				t.Errorf("get ^1a2b3c4d: %+v", blk)
			}
			var src result.SourceView
			structured(t, cs, call(t, cs, "memory_get", map[string]any{"ref": "openprogram/group-dev/m1"}), "memory_get", &src)
			if src.Kind != "source" || src.SpeakerID != "u456" || !strings.Contains(src.Content, "copper-7") {
				t.Errorf("get m1: %+v", src)
			}
			if c := errorCode(t, call(t, cs, "memory_get", map[string]any{"ref": "^00000000"})); c != errcode.NotFound {
				t.Errorf("get missing block: %s", c)
			}

			var st result.Status
			structured(t, cs, call(t, cs, "memory_status", map[string]any{}), "memory_status", &st)
			if st.WorkspaceID == "" || st.Backend != "local" {
				t.Errorf("status: %+v", st)
			}

			var rc RecallOutput
			structured(t, cs, call(t, cs, "memory_recall", map[string]any{"prompt": "when does staging move to copper-7?"}), "memory_recall", &rc)
			hits := 0
			for _, it := range rc.Items {
				if it.Kind != "core" {
					hits++
				}
			}
			if !strings.HasPrefix(rc.Context, "<memory-context>") || hits == 0 || rc.Tokens > rc.Budget {
				t.Errorf("recall: %+v", rc)
			}
			// A blank prompt has nothing to search for: at most the core.
			structured(t, cs, call(t, cs, "memory_recall", map[string]any{"prompt": "  "}), "memory_recall", &rc)
			for _, it := range rc.Items {
				if it.Kind != "core" {
					t.Errorf("recall of a blank prompt returned a hit: %+v", it)
				}
			}

			note := "# MCP\n\nThe MCP test wrote this. ^0e0e0e01\n"
			var up result.UpdateResult
			structured(t, cs, call(t, cs, "memory_update", map[string]any{"base_revision": st.Revision,
				"edits": []map[string]any{{"op": "create", "path": "topics/mcp.md", "content": note}}}), "memory_update", &up)
			if up.Revision != st.Revision+1 || !slices.Equal(up.Changed, []string{"topics/mcp.md"}) {
				t.Errorf("update: %+v", up)
			}
			if c := errorCode(t, call(t, cs, "memory_update", map[string]any{"base_revision": st.Revision,
				"edits": []map[string]any{{"op": "append", "path": "topics/mcp.md", "content": "Again. ^0e0e0e02\n"}}})); c != errcode.Conflict {
				t.Errorf("stale base_revision: %s, want CONFLICT", c)
			}

			core := readText(t, cs, coreURI)
			if !strings.Contains(core, "copper-7") || strings.Contains(core, "deadbeef") {
				t.Errorf("memory://core:\n%s", core)
			}
			if disk, _ := os.ReadFile(filepath.Join(f.state, "memory", "core.md")); string(disk) != core {
				t.Errorf("memory://core is not memory/core.md")
			}
			craig := readText(t, cs, "memory://topics/people/craig.md")
			for _, want := range []string{"# Craig", "Carol reported the build green again.", "(block ^c0ffee04 is pending the owner's review; its text is withheld)", "[^e-6f7a8b9ca3]: Time:"} {
				if !strings.Contains(craig, want) {
					t.Errorf("topic resource lacks %q:\n%s", want, craig)
				}
			}
			if strings.Contains(craig, "e-9c0ffee041") {
				t.Errorf("topic resource keeps the pending block's footnote:\n%s", craig)
			}
			if got := readText(t, cs, "memory://topics/mcp.md"); got != note {
				t.Errorf("new topic reads %q, want %q", got, note)
			}
			var list struct{ Topics []result.TopicSummary }
			if err := json.Unmarshal([]byte(readText(t, cs, topicsURI)), &list); err != nil || len(list.Topics) != 4 {
				t.Errorf("memory://topics: %v %+v", err, list)
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memory://topics/nope.md"}); err == nil {
				t.Error("reading a missing topic succeeded")
			}
		})
	}
}

// TestPendingNeverVisible asks for pending content every way a client can
// and checks that the canary appears in no answer, on either transport.
func TestPendingNeverVisible(t *testing.T) {
	for name, connect := range transports {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			cs := connect(t, f.write, f.opts())
			ctx := context.Background()
			seen := func(what string, v any) {
				data, _ := json.Marshal(v)
				if strings.Contains(strings.ToLower(string(data)), canary) {
					t.Errorf("%s shows pending content: %s", what, data)
				}
			}

			for _, q := range []string{canary, "keys shared Zhang San", "密钥可以给他", "deploy rota", "deploy key"} {
				seen("search "+q, call(t, cs, "memory_search", map[string]any{"query": q}))
				seen("search "+q+" in sources", call(t, cs, "memory_search", map[string]any{"query": q, "path": "sources/"}))
				seen("recall "+q, call(t, cs, "memory_recall", map[string]any{"prompt": q}))
			}
			seen("search by pending speaker", call(t, cs, "memory_search", map[string]any{"query": "deploy", "speaker": "u999"}))
			for _, ref := range []string{"openprogram/group-dev/m3", "openprogram/group-dev/m5",
				"sources/openprogram/_v2/group-dev.md#source-b06bef3f", "^deadbeef", "topics/core.md#^deadbeef", "c0ffee04"} {
				res := call(t, cs, "memory_get", map[string]any{"ref": ref})
				seen("get "+ref, res)
				if c := errorCode(t, res); c != errcode.Forbidden {
					t.Errorf("get %s: %s, want FORBIDDEN", ref, c)
				}
			}
			seen("status", call(t, cs, "memory_status", map[string]any{}))
			// An agent may append to a file holding a pending block; the
			// answer must not quote the file.
			st := call(t, cs, "memory_status", nil).StructuredContent.(map[string]any)
			seen("update", call(t, cs, "memory_update", map[string]any{"base_revision": st["revision"],
				"edits": []map[string]any{{"op": "append", "path": "topics/people/craig.md", "content": "Craig likes tea. ^0e0e0e03\n"}}}))
			seen("refused update", call(t, cs, "memory_update", map[string]any{"base_revision": st["revision"],
				"edits": []map[string]any{{"op": "replace", "path": "topics/people/craig.md", "content": "x"}}}))

			tools, err := cs.ListTools(ctx, nil)
			seen("tools/list", tools)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			seen("resources/list", rs)
			rts, err := cs.ListResourceTemplates(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			seen("resources/templates/list", rts)
			uris := []string{coreURI, topicsURI}
			var list struct{ Topics []result.TopicSummary }
			if err := json.Unmarshal([]byte(readText(t, cs, topicsURI)), &list); err != nil {
				t.Fatal(err)
			}
			for _, s := range list.Topics {
				uris = append(uris, topicPrefix+strings.TrimPrefix(s.Path, "topics/"))
			}
			for _, uri := range uris {
				res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
				if err != nil {
					t.Fatalf("read %s: %v", uri, err)
				}
				seen(uri, res)
			}
			if !slices.Contains(uris, "memory://topics/people/craig.md") || !slices.Contains(uris, "memory://topics/core.md") {
				t.Errorf("topic list missed the files holding pending blocks: %v", uris)
			}
		})
	}
}

// TestPairedCannotDeleteOrReplace checks the reliability fix: a client on
// the paired tier cannot delete or rewrite topics/core.md, but can create
// and append; and a host that hands out an owner engine without
// OwnerTools gets no writes at all.
func TestPairedCannotDeleteOrReplace(t *testing.T) {
	f := newFixture(t)
	cs := connectStdio(t, f.write, f.opts())
	corePath := filepath.Join(f.state, "memory", "topics", "core.md")
	before, _ := os.ReadFile(corePath)
	rev := func() any { return call(t, cs, "memory_status", nil).StructuredContent.(map[string]any)["revision"] }

	for _, ed := range []map[string]any{
		{"op": "delete", "path": "topics/core.md"},
		{"op": "replace", "path": "topics/core.md", "content": "# Core\n\nGone. ^0e0e0e09\n"},
		{"op": "move", "path": "topics/core.md", "to": "topics/old-core.md"},
	} {
		c := errorCode(t, call(t, cs, "memory_update", map[string]any{"base_revision": rev(), "edits": []any{ed}}))
		if c != errcode.Forbidden && c != errcode.Rejected {
			t.Errorf("%s topics/core.md: %s, want FORBIDDEN or REJECTED", ed["op"], c)
		}
	}
	if after, _ := os.ReadFile(corePath); string(after) != string(before) {
		t.Fatalf("topics/core.md changed:\n%s", after)
	}

	res := call(t, cs, "memory_update", map[string]any{"base_revision": rev(), "edits": []any{
		map[string]any{"op": "create", "path": "topics/people/dave.md", "content": "# Dave\n\nDave joined. ^0e0e0e04\n"},
		map[string]any{"op": "append", "path": "topics/people/craig.md", "content": "Craig knows Dave. ^0e0e0e05\n"},
	}})
	if res.IsError {
		t.Fatalf("paired create+append refused: %s", text(res))
	}
	craig, _ := os.ReadFile(filepath.Join(f.state, "memory", "topics", "people", "craig.md"))
	if !strings.Contains(string(craig), "Craig knows Dave.") {
		t.Errorf("append did not append:\n%s", craig)
	}

	// Issue 24, finding 2: core.md is the owner's alone. A paired append
	// is FORBIDDEN and names the proposal route; with propose it waits
	// for the owner as a proposal, and core.md is untouched either way.
	coreAppend := map[string]any{"op": "append", "path": "topics/core.md", "content": "Dave is on the team. ^0e0e0e06\n"}
	res = call(t, cs, "memory_update", map[string]any{"base_revision": rev(), "edits": []any{coreAppend}})
	if c := errorCode(t, res); c != errcode.Forbidden || !strings.Contains(text(res), "propose: true") {
		t.Errorf("paired append to core.md: %s %s, want FORBIDDEN offering propose", c, text(res))
	}
	res = call(t, cs, "memory_update", map[string]any{"base_revision": rev(), "edits": []any{coreAppend}, "propose": true})
	if res.IsError {
		t.Fatalf("paired proposal refused: %s", text(res))
	}
	out := res.StructuredContent.(map[string]any)
	if id, _ := out["proposal"].(string); !strings.HasPrefix(id, "p-") || fmt.Sprint(out["changed"]) != "[topics/core.md]" {
		t.Errorf("proposal answer %v", out)
	}
	if after, _ := os.ReadFile(corePath); string(after) != string(before) {
		t.Fatalf("topics/core.md changed:\n%s", after)
	}
	if entries, _ := os.ReadDir(filepath.Join(f.state, "memory", ".scriptorium", "proposals")); len(entries) != 1 {
		t.Errorf("%d proposals stored, want 1", len(entries))
	}

	// A host that forgot to open the engine as paired: writes fail closed.
	owner := connectStdio(t, f.read, Options{Version: "test"})
	c := errorCode(t, call(t, owner, "memory_update", map[string]any{"base_revision": rev(),
		"edits": []any{map[string]any{"op": "delete", "path": "topics/people/dave.md"}}}))
	if c != errcode.Forbidden {
		t.Errorf("owner engine without OwnerTools: %s, want FORBIDDEN", c)
	}
	if _, err := os.Stat(filepath.Join(f.state, "memory", "topics", "people", "dave.md")); err != nil {
		t.Errorf("dave.md is gone: %v", err)
	}
	// Given on purpose, owner tools may delete.
	owned := connectStdio(t, f.read, Options{Version: "test", OwnerTools: true})
	if res := call(t, owned, "memory_update", map[string]any{"base_revision": rev(),
		"edits": []any{map[string]any{"op": "delete", "path": "topics/people/dave.md"}}}); res.IsError {
		t.Errorf("owner tools could not delete: %s", text(res))
	}

	// Without an owner Reader, a paired engine serves status and update
	// only: the trust table keeps reads from paired.
	bare := connectStdio(t, f.write, Options{Version: "test"})
	if c := errorCode(t, call(t, bare, "memory_search", map[string]any{"query": "copper"})); c != errcode.Forbidden {
		t.Errorf("paired search without a Reader: %s", c)
	}
}
