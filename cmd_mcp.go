package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"

	"io"

	"scriptorium/engine"
	"scriptorium/engine/writer"
	"scriptorium/hosts/errdoc"
	"scriptorium/trust"
)

// runMCP serves memory tools to any Model Context Protocol client over
// stdio: JSON-RPC 2.0, one message per line.
func runMCP(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	open := func(ctx context.Context) (*engine.Engine, error) {
		return engine.Open(ctx, engine.Options{StateDir: dir, Tier: trust.Owner, Interactive: true, Distiller: writer.Distiller{}})
	}
	if e, err := open(ctx); err != nil {
		return err // MEMORY_DISABLED and friends before speaking the protocol
	} else {
		e.Close()
	}
	return serveMCP(ctx, inv.stdin, inv.stdout, open)
}

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// mcpTools is the tool list: read tools and the one write tool, update.
var mcpTools = []map[string]any{
	{"name": "memory_search", "description": "BM25 search over trusted memory blocks and source records.",
		"inputSchema": map[string]any{"type": "object", "required": []string{"query"}, "properties": map[string]any{
			"query": map[string]any{"type": "string"}, "speaker": map[string]any{"type": "string"},
			"path": map[string]any{"type": "string"}, "since": map[string]any{"type": "string"},
			"until": map[string]any{"type": "string"}, "sort": map[string]any{"type": "string", "enum": []string{"score", "date"}},
			"limit": map[string]any{"type": "integer"}, "method": map[string]any{"type": "string", "enum": []string{"bm25", "embedding"}}}}},
	{"name": "memory_get", "description": "A topic block (^id, path#^id) or a source record (source-id, path#source-hash).",
		"inputSchema": map[string]any{"type": "object", "required": []string{"ref"}, "properties": map[string]any{
			"ref": map[string]any{"type": "string"}}}},
	{"name": "memory_status", "description": "Workspace, writer, core and index status.",
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}},
	{"name": "memory_update", "description": "Apply a transaction {base_revision, edits:[…]}: for what the user asked to remember now, or to correct memory.",
		"inputSchema": map[string]any{"type": "object", "required": []string{"base_revision", "edits"}, "properties": map[string]any{
			"base_revision": map[string]any{"type": "integer"}, "edits": map[string]any{"type": "array"}}}},
}

func serveMCP(ctx context.Context, in io.Reader, out io.Writer, open func(context.Context) (*engine.Engine, error)) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var req rpcRequest
		if err := json.Unmarshal(line, &req); err != nil || req.Method == "" {
			_ = enc.Encode(rpcResponse{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{-32700, "parse error: not a JSON-RPC request"}})
			continue
		}
		if len(req.ID) == 0 { // a notification: no answer
			continue
		}
		resp := rpcResponse{JSONRPC: "2.0", ID: req.ID}
		switch req.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(req.Params, &p)
			if p.ProtocolVersion == "" {
				p.ProtocolVersion = "2024-11-05"
			}
			resp.Result = map[string]any{"protocolVersion": p.ProtocolVersion,
				"capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo":   map[string]any{"name": "scriptorium", "version": "0.1.0"}}
		case "ping":
			resp.Result = map[string]any{}
		case "tools/list":
			resp.Result = map[string]any{"tools": mcpTools}
		case "tools/call":
			resp.Result = callMCPTool(ctx, req.Params, open)
		default:
			resp.Error = &rpcError{-32601, "method not found: " + req.Method}
		}
		if err := enc.Encode(resp); err != nil {
			return engine.Wrap(engine.CodeIO, err, "write to the MCP client")
		}
	}
	return sc.Err()
}

// callMCPTool runs one tool; engine failures come back as a tool result
// with isError and the SPEC §12 error document, not as protocol errors.
func callMCPTool(ctx context.Context, params json.RawMessage, open func(context.Context) (*engine.Engine, error)) map[string]any {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(params, &p)
	doc, err := func() (any, error) {
		e, err := open(ctx)
		if err != nil {
			return nil, err
		}
		defer e.Close()
		switch p.Name {
		case "memory_search":
			var a struct {
				Query, Speaker, Path, Since, Until, Sort, Method string
				Limit                                            int
			}
			if err := json.Unmarshal(orEmpty(p.Arguments), &a); err != nil {
				return nil, engine.Errorf(engine.CodeInvalidArgument, "memory_search arguments: %v", err)
			}
			res, err := e.Search(ctx, engine.SearchQuery{Text: a.Query, Speaker: a.Speaker, Path: a.Path,
				Since: a.Since, Until: a.Until, Sort: a.Sort, Limit: a.Limit, Method: a.Method})
			return map[string]any{"results": res}, err
		case "memory_get":
			var a struct{ Ref string }
			if err := json.Unmarshal(orEmpty(p.Arguments), &a); err != nil {
				return nil, engine.Errorf(engine.CodeInvalidArgument, "memory_get arguments: %v", err)
			}
			v, err := e.Get(ctx, a.Ref)
			if err != nil {
				return nil, err
			}
			// An MCP client is an agent, not the owner: content pending the
			// owner's review is not handed to it (SPEC §5).
			if pendingView(v) {
				return nil, engine.Errorf(engine.CodeForbidden, "%s is pending the owner's review", a.Ref)
			}
			return v, nil
		case "memory_status":
			return e.Status(ctx)
		case "memory_update":
			tx, err := engine.ParseTransaction(orEmpty(p.Arguments))
			if err != nil {
				return nil, err
			}
			return e.Update(ctx, tx)
		}
		return nil, engine.Errorf(engine.CodeNotFound, "no tool %q", p.Name)
	}()
	if err != nil {
		ee := engine.AsError(err)
		doc = errdoc.Of(ee)
	}
	text, _ := json.Marshal(doc)
	return map[string]any{"content": []map[string]any{{"type": "text", "text": string(text)}}, "isError": err != nil}
}

func orEmpty(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return []byte("{}")
	}
	return raw
}

// pendingView reports whether a get result is pending content.
func pendingView(v any) bool {
	switch x := v.(type) {
	case engine.SourceView:
		return x.Trust == "pending"
	case engine.BlockView:
		return x.Trust == "pending"
	}
	return false
}
