package mcp

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"scriptorium/engine"
	"scriptorium/engine/browse"
	"scriptorium/engine/proposals"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// Options configures the MCP server.
//
// Trust: an MCP client is an agent, not the owner. Hosts open the engine
// they pass to NewServer with trust.Paired, so memory_update may only
// create topic files or byte-append to them; only when the owner passed an
// explicit flag (the CLI's --owner-tools) do they open it with trust.Owner
// and set OwnerTools. Promotion of pending sources stays with the local
// owner: there is no promote tool.
type Options struct {
	// Version is the server version reported to clients.
	Version string
	// OwnerTools says the owner explicitly gave this client owner rights and
	// the engine was opened with trust.Owner. Without it, memory_update
	// refuses to run on an engine that turns out to hold owner rights, so a
	// host that forgets to downgrade fails closed instead of letting an agent
	// delete or rewrite topics.
	OwnerTools bool
	// Reader serves the read tools and resources (search, get, recall, core,
	// topics); nil means the engine given to NewServer. The trust table lets
	// paired call only status and update, so a host that opens the write
	// engine as paired opens Reader as owner. Nothing pending leaves through
	// it: search and recall only ever see trusted documents, memory_get
	// refuses pending refs, the core is the rendered core.md (pending blocks
	// are never rendered) and topic resources withhold pending blocks.
	Reader *engine.Engine
	// MaxMessageBytes bounds one inbound message: a stdio line or an HTTP
	// request body. Zero means DefaultMaxMessageBytes.
	MaxMessageBytes int
}

// DefaultMaxMessageBytes is the default bound on one inbound message.
const DefaultMaxMessageBytes = 16 << 20

func (o Options) maxMessage() int {
	if o.MaxMessageBytes > 0 {
		return o.MaxMessageBytes
	}
	return DefaultMaxMessageBytes
}

// tools binds the handlers to their engines.
type tools struct {
	write  *engine.Engine // status and update, with the tier the host chose
	read   *engine.Engine
	owner  bool // Options.OwnerTools
	probed sync.Once
	// ownerEngine is set when write turned out to hold owner rights.
	ownerEngine bool
}

// NewServer returns the SDK server with every memory tool and resource
// registered.
func NewServer(eng *engine.Engine, opts Options) *mcp.Server {
	t := &tools{write: eng, read: opts.Reader, owner: opts.OwnerTools}
	if t.read == nil {
		t.read = eng
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "scriptorium", Title: "Scriptorium memory", Version: opts.Version},
		&mcp.ServerOptions{Instructions: instructions(opts.OwnerTools),
			// No logging capability: the server sends no log messages.
			Capabilities: &mcp.ServerCapabilities{}})
	s.AddReceivingMiddleware(errorDocuments)
	no := false
	destructive := opts.OwnerTools // paired edits only ever add bytes

	mcp.AddTool(s, &mcp.Tool{Name: "memory_search", Title: "Search memory",
		Description: "Search trusted memory (BM25, fused with embeddings when configured): topic blocks and source records. Use it before answering from memory; cite results by path#anchor.",
		InputSchema: searchSchema(), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}},
		t.search)
	mcp.AddTool(s, &mcp.Tool{Name: "memory_get", Title: "Get a block or source",
		Description:  "One topic block (^id, path#^id) or source record (source-id, path#source-hash), with its citations. Content pending the owner's review is refused.",
		OutputSchema: getSchema(), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}},
		t.get)
	mcp.AddTool(s, &mcp.Tool{Name: "memory_status", Title: "Memory status",
		Description: "Workspace id and revision (the base_revision memory_update needs), writer, core and index status.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}},
		t.status)
	mcp.AddTool(s, &mcp.Tool{Name: "memory_recall", Title: "Recall for a prompt",
		Description: "What the prompt hook injects for a user's message: the rendered core plus the best trusted hits, fenced once in <memory-context> with each hit's citation, under a token budget; and the same items as a list.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}},
		t.recall)
	update := "Apply one transaction {base_revision, edits} to the topic files: for what the user asked to remember now. " +
		"base_revision comes from memory_status; CONFLICT means re-read and retry. "
	if opts.OwnerTools {
		update += "This client has owner rights: every edit op is allowed."
	} else {
		update += "This client may only add: create new topic files and append to existing ones (a replace must keep the old content, every block of it unchanged, as its start); " +
			"delete, move and rewrites are FORBIDDEN. topics/core.md (the always-on core) is the owner's: to change it, send its create, append or replace edits alone with propose: true; " +
			"they are stored as a proposal the owner reviews (the answer names it in \"proposal\") and nothing is installed."
	}
	mcp.AddTool(s, &mcp.Tool{Name: "memory_update", Title: "Update memory", Description: update,
		InputSchema: updateSchema(),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &destructive, OpenWorldHint: &no}},
		t.update)

	addResources(s, t)
	return s
}

func instructions(owner bool) string {
	s := "Long-term memory of the local user. memory_search and memory_get read trusted memory; " +
		"memory://core is the always-on core, memory://topics lists topic files and memory://topics/{path} reads one. " +
		"Content pending the owner's review is never shown. "
	if owner {
		return s + "This client was given owner rights for memory_update."
	}
	return s + "memory_update may create topic files and append to them; it cannot delete or rewrite memory. " +
		"Changes to topics/core.md are proposed to the owner (memory_update with propose: true), never installed."
}

// SearchInput is memory_search's arguments; each maps onto result.SearchQuery.
type SearchInput struct {
	Query   string `json:"query" jsonschema:"the words to search for"`
	Speaker string `json:"speaker,omitempty" jsonschema:"only source records by this speaker: id, display name or full label, case-insensitive"`
	Path    string `json:"path,omitempty" jsonschema:"only results under this workspace path prefix, e.g. topics/people/ or sources/"`
	Since   string `json:"since,omitempty" jsonschema:"YYYY-MM-DD (inclusive) or an RFC 3339 time"`
	Until   string `json:"until,omitempty" jsonschema:"YYYY-MM-DD (covers that whole day) or an RFC 3339 time"`
	Sort    string `json:"sort,omitempty" jsonschema:"score (default) or date (newest first)"`
	Limit   int    `json:"limit,omitempty" jsonschema:"most results to return (default 10)"`
	Method  string `json:"method,omitempty" jsonschema:"hybrid (the default when embeddings are configured), bm25 (the default otherwise) or embedding"`
}

// SearchOutput is memory_search's result.
type SearchOutput struct {
	Results []result.SearchResult `json:"results"`
}

func (t *tools) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
	res, err := t.read.Search(ctx, result.SearchQuery{Text: in.Query, Speaker: in.Speaker, Path: in.Path,
		Since: in.Since, Until: in.Until, Sort: in.Sort, Limit: in.Limit, Method: in.Method})
	if err != nil {
		return nil, SearchOutput{}, toolError(err)
	}
	return nil, SearchOutput{Results: nonNil(res)}, nil
}

// GetInput is memory_get's argument.
type GetInput struct {
	Ref string `json:"ref" jsonschema:"a block (^id, path#^id) or a source (provider/thread/message, path#source-hash)"`
}

// get returns a result.SourceView or result.BlockView: the SPEC §12 get
// shapes, described by getSchema's oneOf.
func (t *tools) get(ctx context.Context, _ *mcp.CallToolRequest, in GetInput) (*mcp.CallToolResult, any, error) {
	v, err := t.read.Get(ctx, in.Ref)
	if err != nil {
		return nil, nil, toolError(err)
	}
	// An MCP client is an agent, not the owner: content pending the owner's
	// review is not handed to it (SPEC §5).
	pending := false
	switch x := v.(type) {
	case result.SourceView:
		pending = x.Trust != "trusted"
	case result.BlockView:
		pending = x.Trust != "trusted"
	default:
		pending = true // an unknown view cannot be shown to be trusted
	}
	if pending {
		return nil, nil, toolError(errcode.Errorf(errcode.Forbidden, "%s is pending the owner's review", in.Ref))
	}
	return nil, v, nil
}

// StatusInput is memory_status's (empty) argument object.
type StatusInput struct{}

func (t *tools) status(ctx context.Context, _ *mcp.CallToolRequest, _ StatusInput) (*mcp.CallToolResult, result.Status, error) {
	// Status is allowed for paired, so it runs with the client's own tier.
	st, err := t.write.Status(ctx)
	if err != nil {
		return nil, result.Status{}, toolError(err)
	}
	return nil, st, nil
}

// RecallInput is memory_recall's argument.
type RecallInput struct {
	Prompt string `json:"prompt" jsonschema:"the user's message, as it came"`
	Budget int    `json:"budget,omitempty" jsonschema:"o200k_base token budget of the context; 0 or absent means the configured recall.budget_tokens"`
	Cwd    string `json:"cwd,omitempty" jsonschema:"the agent's working directory; its project's memory comes first"`
}

// RecallOutput is what the prompt hook would inject, and the items in it.
type RecallOutput struct {
	Context string        `json:"context" jsonschema:"core and hits fenced once in <memory-context>; empty when there is nothing to recall"`
	Items   []recall.Item `json:"items"`
	Tokens  int           `json:"tokens"`
	Budget  int           `json:"budget"`
}

// recall is recall.Recall, the function the Claude Code hook and the
// `recall` verb call too, so every host gives an agent the same context.
func (t *tools) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallInput) (*mcp.CallToolResult, RecallOutput, error) {
	if in.Budget < 0 {
		return nil, RecallOutput{}, toolError(errcode.Errorf(errcode.InvalidArgument, "budget must not be negative"))
	}
	res, err := recall.Recall(ctx, t.read, recall.Request{Prompt: in.Prompt, Budget: in.Budget, Cwd: in.Cwd})
	if err != nil {
		return nil, RecallOutput{}, toolError(err)
	}
	out := RecallOutput{Context: res.Text, Items: res.Items, Tokens: res.Tokens, Budget: res.Budget}
	if out.Items == nil {
		out.Items = []recall.Item{}
	}
	return nil, out, nil
}

// UpdateInput is a transaction (SPEC §6), or with Propose a proposal.
type UpdateInput struct {
	BaseRevision int64       `json:"base_revision" jsonschema:"the revision the edits were made against (memory_status)"`
	Edits        []EditInput `json:"edits" jsonschema:"the edits, applied all or nothing"`
	Propose      bool        `json:"propose,omitempty" jsonschema:"store the edits (create, append or replace of topics/core.md only) as a proposal for the owner to review instead of installing them"`
}

// UpdateOutput is memory_update's answer: the install's revision and
// changed files, or with propose the proposal stored and the files it
// would change (the revision is then the current one, unchanged).
type UpdateOutput struct {
	Revision int64    `json:"revision" jsonschema:"the revision after the call"`
	Changed  []string `json:"changed" jsonschema:"the files installed, or with propose the files the proposal would change"`
	Proposal string   `json:"proposal,omitempty" jsonschema:"with propose: the id of the proposal stored for the owner's review"`
}

// EditInput is one edit of a transaction.
type EditInput struct {
	Op      string  `json:"op" jsonschema:"create, append, replace, delete or move"`
	Path    string  `json:"path" jsonschema:"topic file path, e.g. topics/people/dave.md"`
	Content *string `json:"content,omitempty" jsonschema:"the file content (create, replace) or the bytes to add (append)"`
	To      string  `json:"to,omitempty" jsonschema:"move only: the new path"`
}

func (t *tools) update(ctx context.Context, _ *mcp.CallToolRequest, in UpdateInput) (*mcp.CallToolResult, UpdateOutput, error) {
	if err := t.checkTier(ctx); err != nil {
		return nil, UpdateOutput{}, toolError(err)
	}
	// One validation path: the same parser the CLI's update uses.
	data, err := json.Marshal(in)
	if err != nil {
		return nil, UpdateOutput{}, toolError(err)
	}
	tx, err := result.ParseTransaction(data)
	if err != nil {
		return nil, UpdateOutput{}, toolError(err)
	}
	if in.Propose {
		sub, err := proposals.Submit(ctx, t.write, tx)
		if err != nil {
			return nil, UpdateOutput{}, toolError(err)
		}
		return nil, UpdateOutput{Revision: sub.Revision, Changed: sub.Changed, Proposal: sub.Proposal}, nil
	}
	res, err := t.write.Update(ctx, tx)
	if err != nil {
		return nil, UpdateOutput{}, toolError(err)
	}
	return nil, UpdateOutput{Revision: res.Revision, Changed: nonNil(res.Changed)}, nil
}

// checkTier refuses writes through an owner-tier engine the owner did not
// hand out on purpose. CoreView is an owner-only operation that changes
// nothing, so it tells the tiers apart; for paired it fails at the gate at
// once.
func (t *tools) checkTier(ctx context.Context) error {
	if t.owner {
		return nil
	}
	t.probed.Do(func() {
		_, err := browse.CoreView(ctx, t.write)
		t.ownerEngine = err == nil || errcode.As(err).Code != errcode.Forbidden
	})
	if t.ownerEngine {
		return errcode.Errorf(errcode.Forbidden, "this MCP server's engine holds owner rights but the owner did not grant owner tools; refusing to write")
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// searchSchema is SearchInput's schema with the closed word lists, so a
// bad sort or method is refused before the engine is asked.
func searchSchema() *jsonschema.Schema {
	s := mustSchema[SearchInput]()
	s.Properties["sort"].Enum = []any{"score", "date"}
	s.Properties["method"].Enum = []any{"bm25", "hybrid", "embedding"}
	one := 1.0
	s.Properties["limit"].Minimum = &one
	return s
}

func updateSchema() *jsonschema.Schema {
	s := mustSchema[UpdateInput]()
	s.Properties["edits"].Items.Properties["op"].Enum = []any{"create", "append", "replace", "delete", "move"}
	one := 1
	s.Properties["edits"].MinItems = &one
	return s
}

// getSchema says memory_get returns exactly one of the two get shapes.
func getSchema() *jsonschema.Schema {
	src, blk := mustSchema[result.SourceView](), mustSchema[result.BlockView]()
	var s, b any = "source", "topic"
	src.Properties["kind"].Const, blk.Properties["kind"].Const = &s, &b
	return &jsonschema.Schema{Type: "object", OneOf: []*jsonschema.Schema{src, blk}}
}

func mustSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // a programming error in this package's types
	}
	return s
}
