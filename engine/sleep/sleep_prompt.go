package sleep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"scriptorium/engine"
	"scriptorium/render"
)

// sleepPromptTokens bounds the topic text one model pass is shown; files
// past it are named but not shown, and a later pass gets to them once the
// earlier ones are smaller.
const sleepPromptTokens = 100_000

// sleepInstructions is the system prompt of a model sleep pass. It states
// the rules finishPass enforces, so a well-behaved model is never rejected.
const sleepInstructions = `You are the nightly reorganiser of an AI agent's long-term memory: Markdown topic files under topics/.
Writes only make files longer; your pass makes them right. Do exactly these kinds of work, and only where they are clearly needed:
1. Split a file that covers several topics (or is very long) into several files, for example topics/x.md plus topics/x/<part>.md.
2. Merge duplicate or near-duplicate blocks: keep one block (and its id), give it the footnote references of both, and remove the other.
3. Repair links [text](relative/path.md#^<block-id>) to blocks that moved, so they point to the file that now holds the block.
4. In topics/core.md, blocks are rendered into every session in file order until the token budget is full; the rest is left out. You may reorder core.md so that the most important stable facts come first.

Format rules (a pass that breaks any of them is rejected whole and nothing changes):
- A block is a paragraph or list whose last line ends with " ^" and 8 lowercase hex digits (its id). Keep every id of a block you keep; never invent ids for existing blocks; ids are unique across the workspace.
- Footnote references look like [^e-0123456789]. Every reference needs a definition in the same file, exactly:
  [^e-0123456789]: Time: ` + "`YYYY-MM-DD`" + `; Sources: [<source-id>](<path relative to the topic file's directory>#source-xxxxxxxx)
  When you move a block to another directory, copy its definitions and rewrite the relative source paths for the new directory.
- Every source-id cited anywhere before your pass must still be cited by some footnote after it. Never drop evidence.
- Blocks listed as pending must not be edited, merged, moved into other blocks or removed. Their text is withheld from you, and files marked read_only (they hold such blocks) must not be edited, moved or deleted at all.
- Paths stay under topics/ and end in .md. Do not change what a block says beyond merging duplicates.

Answer with one JSON object and nothing else:
{"edits":[{"op":"create","path":"topics/…","content":"…"},{"op":"replace","path":"topics/…","content":"…"},{"op":"delete","path":"topics/…"},{"op":"move","path":"topics/a.md","to":"topics/b/a.md"}]}
"replace" and "create" carry the complete new file content. If nothing needs to change, answer {"edits":[]}.`

// sleepPromptFile is one topic file as the model sees it.
type sleepPromptFile struct {
	Path          string   `json:"path"`
	Tokens        int      `json:"tokens"`
	PendingBlocks []string `json:"pending_blocks,omitempty"`
	ReadOnly      bool     `json:"read_only,omitempty"` // holds pending blocks, whose text is withheld
	Content       string   `json:"content"`
}

// sleepPrompt describes the workspace to the model: the core budget
// outcome, which files are oversized, and every topic file as one JSON
// line (JSON keeps file contents unambiguous, fences and all).
func sleepPrompt(e *engine.Engine, v *engine.View, splitTokens int) string {
	var b strings.Builder
	_, core := e.CoreRender(v)
	fmt.Fprintf(&b, "Workspace revision %d.\n", v.Revision)
	fmt.Fprintf(&b, "topics/core.md: budget %d tokens, %d used; %d block(s) rendered, left out by the budget: %s; pending: %s.\n",
		core.Budget, core.Tokens, len(core.Included), listOrNone(core.Excluded), listOrNone(core.Pending))
	var lines []string
	var big, omitted []string
	used := 0
	for _, p := range v.TopicPaths() {
		data, file, _ := v.Topic(p)
		text, withheld := v.WithheldText(p)
		f := sleepPromptFile{Path: p, Tokens: render.CountTokens(string(data)), Content: text, ReadOnly: withheld}
		for _, bl := range file.Blocks() {
			if !v.BlockTrusted(p, bl) {
				f.PendingBlocks = append(f.PendingBlocks, bl.BlockID)
			}
		}
		if f.Tokens > splitTokens {
			big = append(big, fmt.Sprintf("%s (%d tokens)", p, f.Tokens))
		}
		if used+f.Tokens > sleepPromptTokens && used > 0 {
			omitted = append(omitted, p)
			continue
		}
		used += f.Tokens
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false) // file contents are Markdown, not HTML
		if err := enc.Encode(f); err != nil {
			continue // strings and ints always encode; nothing to report
		}
		lines = append(lines, strings.TrimSuffix(line.String(), "\n"))
	}
	fmt.Fprintf(&b, "Files over %d tokens (candidates for a split): %s.\n", splitTokens, listOrNone(big))
	if len(omitted) > 0 {
		fmt.Fprintf(&b, "Not shown this pass (too much text for one pass; do not edit them): %s.\n", strings.Join(omitted, ", "))
	}
	fmt.Fprintf(&b, "\nThe %d topic file(s), one JSON object per line:\n", len(lines))
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
