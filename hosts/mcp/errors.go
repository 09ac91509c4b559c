package mcp

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"scriptorium/errcode"
	"scriptorium/hosts/errdoc"
)

// errorDocument is the SPEC §12 document of err, as `--json` prints it
// (hosts/errdoc, the one mapping every front end shares), so an agent reads
// what the CLI prints.
func errorDocument(err error) []byte {
	doc, _ := json.Marshal(errdoc.Of(err))
	return doc
}

// docError is an error whose text is its error document. The SDK turns a
// typed tool handler's error into an IsError result holding the error's
// text, so returning one is how a tool answers with the document.
type docError struct {
	doc []byte
	err error
}

func (d *docError) Error() string { return string(d.doc) }
func (d *docError) Unwrap() error { return d.err }

// toolError makes a tool handler's failure a tool error carrying the
// error document (not a protocol error: the agent should read it).
func toolError(err error) error { return &docError{doc: errorDocument(err), err: err} }

// errorDocuments rewrites the IsError results the SDK makes itself (the
// arguments failed the input schema) into error documents as well, so a
// client parses every tool failure the same way.
func errorDocuments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !r.IsError || r.GetError() == nil {
			return res, err
		}
		var d *docError
		if !errors.As(r.GetError(), &d) {
			doc := errorDocument(errcode.Errorf(errcode.InvalidArgument, "%v", r.GetError()))
			r.Content = []mcp.Content{&mcp.TextContent{Text: string(doc)}}
		}
		return r, nil
	}
}

// resourceError maps an engine failure while reading a resource onto a
// JSON-RPC error (resources have no IsError result); the error document
// rides along as the error's data.
func resourceError(uri string, err error) error {
	switch errcode.As(err).Code {
	case errcode.NotFound:
		return mcp.ResourceNotFoundError(uri)
	case errcode.InvalidArgument:
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: errcode.As(err).Message, Data: errorDocument(err)}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: errcode.As(err).Message, Data: errorDocument(err)}
}
