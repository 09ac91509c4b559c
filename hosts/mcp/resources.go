package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"scriptorium/engine/browse"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace/topic"
)

// Resource URIs.
const (
	coreURI      = "memory://core"
	topicsURI    = "memory://topics"
	topicPrefix  = "memory://topics/"
	topicPattern = "memory://topics/{+path}"
)

func addResources(s *mcp.Server, t *tools) {
	s.AddResource(&mcp.Resource{URI: coreURI, Name: "core", Title: "Core memory", MIMEType: "text/markdown",
		Description: "The always-on core: memory/core.md as rendered under the token budget, the text a host puts in the system prompt. Pending blocks are never rendered."},
		t.readCore)
	s.AddResource(&mcp.Resource{URI: topicsURI, Name: "topics", Title: "Topic files", MIMEType: "application/json",
		Description: "Every topic file with its block count and how many blocks are pending the owner's review; read one as memory://topics/<path below topics/>."},
		t.readTopics)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: topicPattern, Name: "topic", Title: "Topic file", MIMEType: "text/markdown",
		Description: "One topic file, e.g. memory://topics/people/craig.md for topics/people/craig.md. Blocks pending the owner's review are withheld."},
		t.readTopic)
}

// readCore returns the rendered core.md, the same bytes the host's system
// prompt carries (engine Backend SystemPrompt reads this file). It is
// empty until the first install or `core` renders it.
func (t *tools) readCore(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	data, err := os.ReadFile(filepath.Join(t.read.Root(), "core.md"))
	if err != nil && !os.IsNotExist(err) {
		return nil, resourceError(req.Params.URI, errcode.Wrap(errcode.IO, err, "read core.md"))
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: coreURI, MIMEType: "text/markdown", Text: string(data)}}}, nil
}

func (t *tools) readTopics(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	sums, err := browse.Topics(ctx, t.read)
	if err != nil {
		return nil, resourceError(req.Params.URI, err)
	}
	data, err := json.Marshal(map[string]any{"topics": nonNil(sums)})
	if err != nil {
		return nil, resourceError(req.Params.URI, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: topicsURI, MIMEType: "application/json", Text: string(data)}}}, nil
}

func (t *tools) readTopic(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rel, err := url.PathUnescape(strings.TrimPrefix(uri, topicPrefix))
	if err != nil || rel == "" || path.Clean(rel) != rel || strings.HasPrefix(rel, "../") || rel == ".." {
		return nil, resourceError(uri, errcode.Errorf(errcode.InvalidArgument, "%s does not name a topic file", uri))
	}
	v, err := browse.Topic(ctx, t.read, "topics/"+rel)
	if err != nil {
		return nil, resourceError(uri, err)
	}
	text, err := withheld(v)
	if err != nil {
		return nil, resourceError(uri, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
}

// withheld renders a topic file as an agent may see it: headings, trusted
// blocks and the footnote definitions those blocks cite, with each pending
// block replaced by a placeholder (as the engine does for model prompts,
// whose helper is not exported). Paragraphs without a block id have no
// computed trust and are withheld too. Trust comes from the engine's
// TopicView, matched to the parsed file block by block; if the two
// disagree nothing is returned, since guessing could leak pending text.
func withheld(v result.TopicView) (string, error) {
	f, _ := topic.Parse([]byte(v.Raw))
	blocks := f.Blocks()
	if len(blocks) != len(v.Blocks) {
		return "", errcode.Errorf(errcode.IO, "%s changed while it was read; try again", v.Path)
	}
	trusted := map[int]bool{}
	cited := map[string]bool{} // footnote labels a trusted block cites
	for i, b := range blocks {
		if v.Blocks[i].Ref != b.BlockID {
			return "", errcode.Errorf(errcode.IO, "%s changed while it was read; try again", v.Path)
		}
		if v.Blocks[i].Trust == "trusted" {
			trusted[b.Line] = true
			for _, r := range b.Refs {
				cited[r.Label] = true
			}
		}
	}
	var parts []string
	for _, el := range f.Elements {
		switch el.Kind {
		case topic.KindHeading:
			parts = append(parts, el.Raw)
		case topic.KindBlock:
			if trusted[el.Line] {
				parts = append(parts, el.Raw)
			} else {
				parts = append(parts, fmt.Sprintf("(block ^%s is pending the owner's review; its text is withheld)", el.BlockID))
			}
		case topic.KindFootnote:
			if cited[el.Label] {
				parts = append(parts, el.Raw)
			}
		default:
			parts = append(parts, fmt.Sprintf("(a paragraph at line %d has no block id; its text is withheld)", el.Line))
		}
	}
	if len(parts) == 0 {
		return "", nil
	}
	return strings.Join(parts, "\n\n") + "\n", nil
}
