package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/treetest"
)

// canary marks every piece of pending content in the test workspace; it
// must never reach an MCP client.
const canary = "zebrafinchcanary"

// fixture is the "valid" workspace with the canary planted in both pending
// group-chat sources, in the pending core block and in a new pending block
// of topics/people/craig.md, opened the way a host opens it: paired for
// writes, owner for trusted reads.
type fixture struct {
	state string
	write *engine.Engine // paired
	read  *engine.Engine // owner
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	if err := treetest.CopyTree(filepath.Join("..", "..", "testdata", "ws", "valid", "state"), state); err != nil {
		t.Fatal(err)
	}
	mem := filepath.Join(state, "memory")
	plant(t, filepath.Join(mem, "sources/openprogram/_v2/group-dev.md"),
		"密钥可以给他", "密钥可以给他 "+canary,
		"Please add me to the deploy rota.", "Please add me to the deploy rota, "+canary+".")
	plant(t, filepath.Join(mem, "topics/core.md"),
		"Keys may be shared with Zhang San.", "Keys may be shared with Zhang San, "+canary+".")
	plant(t, filepath.Join(mem, "topics/people/craig.md"), "## Notes\n",
		"Craig's deploy key is "+canary+".[^e-9c0ffee041] ^c0ffee04\n\n## Notes\n")
	appendFile(t, filepath.Join(mem, "topics/people/craig.md"),
		"\n[^e-9c0ffee041]: Time: `2026-08-10`; Sources: [openprogram/group-dev/m3](../../sources/openprogram/_v2/group-dev.md#source-b06bef3f)\n")

	ctx := context.Background()
	f := &fixture{state: state}
	var err error
	if f.read, err = engine.Open(ctx, engine.Options{StateDir: state, Tier: trust.Owner, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.read.Close() })
	if f.write, err = engine.Open(ctx, engine.Options{StateDir: state, Tier: trust.Paired, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.write.Close() })
	if rep, err := f.read.Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("fixture does not verify: %v %+v", err, rep.Violations)
	}
	if _, err := f.read.Core(ctx); err != nil { // render memory/core.md
		t.Fatal(err)
	}
	// The canary really is in the workspace, for the owner to see.
	v, err := f.read.Get(ctx, "openprogram/group-dev/m3")
	if err != nil || !strings.Contains(v.(result.SourceView).Content, canary) {
		t.Fatalf("canary not planted in the pending source: %v %+v", err, v)
	}
	return f
}

func plant(t *testing.T, path string, pairs ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s has no %q", path, pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, text...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) opts() Options { return Options{Version: "test", Reader: f.read} }

// transports connects an SDK client to the server over each transport.
var transports = map[string]func(t *testing.T, eng *engine.Engine, opts Options) *mcp.ClientSession{
	"stdio": connectStdio,
	"http":  connectHTTP,
}

func connectStdio(t *testing.T, eng *engine.Engine, opts Options) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srvIn, cliOut := io.Pipe()
	cliIn, srvOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, eng, opts, srvIn, srvOut) }()
	// A client write to a server that stopped reading blocks on the pipe
	// whatever its context says; the watchdog turns that into a failure.
	watchdog := time.AfterFunc(2*callTimeout, func() {
		srvIn.CloseWithError(io.ErrClosedPipe)
		srvOut.CloseWithError(io.ErrClosedPipe)
	})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: cliIn, Writer: cliOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		watchdog.Stop()
		cs.Close()
		cliOut.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("ServeStdio did not return after the client closed")
		}
		cancel()
	})
	return cs
}

func connectHTTP(t *testing.T, eng *engine.Engine, opts Options) *mcp.ClientSession {
	t.Helper()
	srv := httptest.NewServer(HTTPHandler(eng, opts))
	t.Cleanup(srv.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTimeout turns a server that stopped answering into a failure, not a
// hung test.
const callTimeout = 30 * time.Second

// call runs a tool and returns its result; a protocol error fails the test.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// structured checks a successful result against the tool's output schema
// and decodes its structured content into out.
func structured(t *testing.T, cs *mcp.ClientSession, res *mcp.CallToolResult, name string, out any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("%s failed: %s", name, text(res))
	}
	var tool *mcp.Tool
	for tl, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tl.Name == name {
			tool = tl
		}
	}
	if tool == nil || tool.OutputSchema == nil {
		t.Fatalf("%s has no output schema", name)
	}
	var schema jsonschema.Schema
	remarshal(t, tool.OutputSchema, &schema)
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("%s output schema: %v", name, err)
	}
	var inst any
	remarshal(t, res.StructuredContent, &inst)
	if err := resolved.Validate(inst); err != nil {
		t.Fatalf("%s structured content does not match its schema: %v", name, err)
	}
	remarshal(t, res.StructuredContent, out)
}

func remarshal(t *testing.T, from, to any) {
	t.Helper()
	data, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, to); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// errorCode returns the code of a tool error's SPEC §12 document.
func errorCode(t *testing.T, res *mcp.CallToolResult) errcode.Code {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want a tool error, got %s", text(res))
	}
	var doc struct {
		Error struct {
			Code      errcode.Code `json:"code"`
			Message   string       `json:"message"`
			Retryable *bool        `json:"retryable"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(text(res)), &doc); err != nil || doc.Error.Code == "" || doc.Error.Retryable == nil {
		t.Fatalf("tool error is not an error document: %s", text(res))
	}
	return doc.Error.Code
}

func readText(t *testing.T, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("read %s: %d contents", uri, len(res.Contents))
	}
	return res.Contents[0].Text
}
