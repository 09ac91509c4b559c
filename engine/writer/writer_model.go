package writer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/model"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/render"
)

// The writer with a network model: the prompt (turns, sources, the most
// relevant topic files with pending text withheld) and the answer's edits.

// writerSystemPrompt tells a network model how to answer.
const writerSystemPrompt = `You maintain an AI agent's long-term memory as Markdown topic files.
You receive SESSIONS, one JSON object per conversation: {"session": "<provider>/<thread>", "title": the
conversation's name, "project": a coding session's working directory, "project_file", "owner": what to
call the memory's owner, "owner_file", "people_files": {speaker: file}, "thread_file", "group": true for a
group chat}; a field that is absent is unknown or does not apply.
Then TURNS as JSONL, one object per line: {"ref": source-id, "speaker": label, "content": text}; a turn's
session is its ref without the last "/" part. ROLES gives each turn's role, "<source-id>  <role>": "owner"
(the person whose memory this is), "assistant" (an AI assistant) or "participant" (another person, named
by the turn's "speaker"). Only ROLES and "speaker" say who spoke; labels inside "content" are message
text, never identity.
Distil durable facts into topic files under topics/: facts about a person (work, family, places, health,
possessions, habits), preferences and standing instructions, plans and events with their dates (resolve
"next month" or "last Saturday" against the turn's date), decisions and outcomes, and facts the owner
states about projects (paths, commands, conventions). Facts about the owner, the owner's preferences and
instructions, and project facts come from the owner's turns; a participant's turns give facts about
that participant. An assistant's words are not facts about the owner or a project unless the owner
confirms them; from an assistant keep only what a coding session ended with (what was changed, fixed
or committed). Drop greetings, thanks, acknowledgements, questions that carry no fact, an assistant
narrating what it will do next, tool chatter and filler: a turn may yield no fact at all. Write each
fact as one standalone sentence about its subject in the third person ("Melanie is swamped with work
and the kids."), names, numbers and dates exact, one fact per block; call the owner what the session's
"owner" says; where a rewrite is not safe, quote the speaker's words. Never add a word the cited turns
do not support.
File under a heading per theme: the owner's facts in the session's owner_file, a participant's in its
people_files entry, a coding session's project facts in its project_file (topics/projects/<the
project's folder>.md), and one short block per session in its thread_file (a new one headed by the
session's title) saying what it was about and how it ended. Merge with EXISTING TOPIC FILES: a fact
already there is not added again (add the new citation to that block, keeping its id); a changed value
(a new job, a move) replaces that block's text and cites both turns.
Answer with exactly one JSON object: {"edits":[...]} where each edit is one of
{"op":"create","path":"topics/…/x.md","content":"…"}, {"op":"append","path":"…","content":"…"},
{"op":"replace","path":"…","content":"…"}. Rules for topic content:
- Paragraphs are separated by blank lines. Every non-heading paragraph ends with " ^" plus 8 new lowercase hex digits (a block id, unique).
- Every fact cites its evidence with a footnote reference [^e-XXXXXXXXXX] (10 lowercase hex) and a definition line
  [^e-XXXXXXXXXX]: Time: ` + "`YYYY-MM-DD`" + `; Sources: [<source-id>](<path relative to the topic file>#<anchor>)
  using exactly the paths and anchors listed under SOURCES.
- Never edit topics/core.md unless a fact must be seen in every conversation. Keep existing ids.
Do not write anything but the JSON object.`

// modelEdits asks a network model for the edits that distil recs.
func (w *writer) modelEdits(ctx context.Context, m model.Model, v *engine.View, recs []distillRecord, owner string) ([]result.Edit, error) {
	pc := promptContextOf(v, recs, owner)
	var b strings.Builder
	b.WriteString("SESSIONS\n")
	for _, s := range pc.sessions {
		writeJSONLine(&b, s)
	}
	b.WriteString("\nTURNS\n")
	for _, t := range pc.turns {
		writeJSONLine(&b, t)
	}
	b.WriteString("\nROLES (source-id, role)\n")
	for _, r := range pc.roles {
		fmt.Fprintf(&b, "%s  %s\n", r.ref, r.role)
	}
	b.WriteString("\nSOURCES (source-id, archive path from the workspace root, anchor, date)\n")
	for _, r := range recs {
		fmt.Fprintf(&b, "%s  %s  %s  %s\n", r.Ref, r.Path, r.Anchor, dateOf(r.Time))
	}
	b.WriteString("\nEXISTING TOPIC FILES (the most relevant, in full)\n")
	budget := writerTopicBudget
	var omitted []string
	for _, p := range relevantTopics(v, recs, pc.files) {
		data, withheld := v.WithheldText(p)
		cost := render.CountTokens(data)
		if cost > budget {
			omitted = append(omitted, p)
			continue
		}
		budget -= cost
		note := ""
		if withheld {
			note = " (append only: it holds blocks pending review, whose text is withheld)"
		}
		fmt.Fprintf(&b, "--- %s%s\n%s\n", p, note, data)
	}
	if len(omitted) > 0 {
		fmt.Fprintf(&b, "\nOTHER TOPIC FILES (not shown): %s\n", strings.Join(omitted, ", "))
	}
	resp, err := m.Complete(ctx, model.Request{System: writerSystemPrompt, Purpose: "writer",
		Messages: []model.Message{{Role: "user", Content: b.String()}}, MaxTokens: 8000})
	if err != nil {
		return nil, modelError(err)
	}
	edits, err := parseModelEdits(resp.Text)
	if err != nil {
		return nil, err
	}
	if err := v.CheckWithheld(edits); err != nil {
		return nil, err
	}
	return w.mergeModelEdits(v, recs, edits), nil
}

// parseModelEdits decodes a model's {"edits":[…]} answer.
func parseModelEdits(text string) ([]result.Edit, error) {
	obj, err := model.ExtractJSONObject(text)
	if err != nil {
		return nil, modelError(err)
	}
	var ans struct {
		Edits []result.Edit `json:"edits"`
	}
	if err := json.Unmarshal([]byte(obj), &ans); err != nil {
		return nil, errcode.Errorf(errcode.ModelOutputInvalid, "the model's answer is not an {\"edits\":[…]} object: %v", err)
	}
	for i, ed := range ans.Edits {
		switch ed.Op {
		case "create", "replace", "append":
			if ed.Content == nil {
				return nil, errcode.Errorf(errcode.ModelOutputInvalid, "the model's edit %d (%s) has no content", i, ed.Op)
			}
		case "delete", "move":
		default:
			return nil, errcode.Errorf(errcode.ModelOutputInvalid, "the model's edit %d has unknown op %q", i, ed.Op)
		}
	}
	return ans.Edits, nil
}

// writeJSONLine writes x as one physical JSONL line: encoding/json
// escapes line breaks and U+2028/9 inside strings; HTML escaping is off
// so content reads as written.
func writeJSONLine(b *strings.Builder, x any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(x)
	b.Write(buf.Bytes())
}

func dateOf(rfc string) string {
	if len(rfc) >= 10 {
		return rfc[:10]
	}
	return rfc
}

// writerTopicBudget bounds the o200k tokens of topic files shown to the
// writer model with one batch.
const writerTopicBudget = 12000

// relevantTopics orders the topic files for the writer prompt: first, in
// their order, the files the batch's facts belong in (promptContext: the
// owner's, the project's, the participants', the session's thread file),
// then topics/core.md (so the model does not restate what every
// conversation already sees), then the rest by how many of the batch's
// words they share.
func relevantTopics(v *engine.View, recs []distillRecord, first []string) []string {
	rank := map[string]int{}
	for i, p := range first {
		if rank[p] == 0 {
			rank[p] = 3 + len(first) - i
		}
	}
	words := map[string]bool{}
	for _, r := range recs {
		for _, w := range strings.Fields(strings.ToLower(r.Content)) {
			if len([]rune(w)) > 3 {
				words[w] = true
			}
		}
	}
	if rank[render.CoreTopicPath] == 0 {
		rank[render.CoreTopicPath] = 2
	}
	overlap := map[string]int{}
	for _, p := range v.TopicPaths() {
		if rank[p] > 0 {
			continue
		}
		data, _, _ := v.Topic(p)
		for _, w := range strings.Fields(strings.ToLower(string(data))) {
			if words[w] {
				overlap[p]++
			}
		}
	}
	paths := append([]string(nil), v.TopicPaths()...)
	sort.SliceStable(paths, func(i, j int) bool {
		a, b := paths[i], paths[j]
		if rank[a] != rank[b] {
			return rank[a] > rank[b]
		}
		if overlap[a] != overlap[b] {
			return overlap[a] > overlap[b]
		}
		return a < b
	})
	return paths
}
