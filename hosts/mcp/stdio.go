package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"scriptorium/engine"
	"scriptorium/errcode"
)

// ServeStdio serves one MCP session over newline-delimited JSON-RPC on in
// and out until the client closes in or ctx ends (both are a normal end).
func ServeStdio(ctx context.Context, eng *engine.Engine, opts Options, in io.Reader, out io.Writer) error {
	w := &syncWriter{w: out}
	g := &lineGuard{r: bufio.NewReaderSize(in, 64<<10), w: w, limit: opts.maxMessage()}
	// The guard hands the SDK only lines it can decode, each within the
	// limit; the SDK's own cap (which ends the session when hit) is set
	// above anything the guard lets through, allowing for its read-ahead.
	t := &mcp.IOTransport{Reader: io.NopCloser(g), Writer: nopCloser{w}, MaxLineLength: 2*g.limit + 64}
	err := NewServer(eng, opts).Run(ctx, t)
	if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil
	}
	return errcode.Wrap(errcode.IO, err, "MCP session")
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// syncWriter serialises whole messages from the SDK and from the guard's
// own error answers. The SDK writes each message with one Write call.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// lineGuard sits between stdin and the SDK. The SDK ends the whole session
// on the first line it cannot read (too long, not JSON, not JSON-RPC), so
// one bad message would kill the server; the guard answers such a line
// itself with a JSON-RPC error, drops it, and passes the next one on.
type lineGuard struct {
	r     *bufio.Reader
	w     io.Writer
	limit int
	cur   []byte // the line being handed to the SDK
	off   int
}

func (g *lineGuard) Read(p []byte) (int, error) {
	for g.off >= len(g.cur) {
		line, err := g.next()
		if err != nil {
			return 0, err
		}
		g.cur, g.off = line, 0
	}
	n := copy(p, g.cur[g.off:])
	g.off += n
	return n, nil
}

// next returns the next line worth handing on, newline-terminated.
func (g *lineGuard) next() ([]byte, error) {
	for {
		line, over, err := g.readLine()
		switch {
		case over:
			g.refuse(line, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message is larger than the %d-byte limit; it was not read", g.limit))
		case len(line) > 0:
			if ok := g.check(line); ok {
				return append(line, '\n'), nil
			}
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine reads one line without its newline and surrounding space. A
// line over the limit is drained to its end and reported as over, with
// only its start kept (enough to find the request id).
func (g *lineGuard) readLine() (line []byte, over bool, err error) {
	const keep = 64 << 10
	var buf []byte
	for {
		chunk, err := g.r.ReadSlice('\n')
		if !over {
			buf = append(buf, chunk...)
			if len(bytes.TrimRight(buf, "\r\n")) > g.limit {
				over, buf = true, buf[:min(len(buf), keep)]
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(buf), over, err
	}
}

// batchRefused is the answer to a JSON-RPC batch, over stdio and HTTP
// alike.
const batchRefused = "JSON-RPC batches are not supported (MCP 2025-06-18 dropped them); send one message at a time"

// isBatch reports whether a message is a JSON-RPC batch (a JSON array).
func isBatch(msg []byte) bool {
	msg = bytes.TrimSpace(msg)
	return len(msg) > 0 && msg[0] == '['
}

// check reports whether the SDK can take line; otherwise it answers it.
// Batches are refused: MCP dropped them in 2025-06-18, and the SDK ends
// the session on a batch in a session that negotiated that version.
func (g *lineGuard) check(line []byte) bool {
	if !json.Valid(line) {
		g.answer(nil, jsonrpc.CodeParseError, "parse error: the line is not one JSON value")
		return false
	}
	if isBatch(line) {
		g.answer(nil, jsonrpc.CodeInvalidRequest, batchRefused)
		return false
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		g.refuse(line, jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0 message: "+err.Error())
		return false
	}
	return true
}

// refuse answers a bad message, under its id when one can be found in
// what was kept of it. A bad response (it has a result or an error) gets
// no answer: answering an answer would confuse the client more.
func (g *lineGuard) refuse(prefix []byte, code int64, msg string) {
	id, isResponse := scanID(prefix)
	if !isResponse {
		g.answer(id, code, msg)
	}
}

// scanID walks the top-level keys of a (possibly cut-off) JSON object and
// returns the value of "id" if it is a number or string.
func scanID(prefix []byte) (id json.RawMessage, isResponse bool) {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		key, _ := tok.(string)
		if err != nil {
			break
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		switch key {
		case "id":
			if len(v) > 0 && (v[0] == '"' || v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
				id = v
			}
		case "result", "error":
			isResponse = true
		}
	}
	return id, isResponse
}

// answer writes one JSON-RPC error response; a nil id is written as null,
// as JSON-RPC asks when the id cannot be known.
func (g *lineGuard) answer(id json.RawMessage, code int64, msg string) {
	_, _ = g.w.Write(errorResponse(id, code, msg))
}

func errorResponse(id json.RawMessage, code int64, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: msg,
		Data: errorDocument(errcode.Errorf(errcode.InvalidArgument, "%s", msg))}})
	return append(data, '\n')
}
