package scale

// Coding agents' session files for the import benchmarks (issue 26's
// import row): a Codex CLI rollout and a Gemini CLI session log, each of
// any size, in the record layouts transcript/codex and transcript/gemini
// describe. As in ClaudeCodeTranscript, a tool's output (a file's worth of
// text) is the bulk of the bytes; the turns are the prompts and answers.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// CodexSeed and GeminiSeed are the seeds of those import benchmarks.
const (
	CodexSeed  uint64 = 5151
	GeminiSeed uint64 = 6161
)

// agentGen writes JSON lines and counts what it wrote.
type agentGen struct {
	r    *rand.Rand
	text *textGen
	w    *countWriter
	t    time.Time
	err  error
}

func newAgentGen(w io.Writer, seed uint64) (*agentGen, *bufio.Writer) {
	bw := bufio.NewWriterSize(w, 256<<10)
	r := rand.New(rand.NewPCG(seed, seed^0xbb67ae8584caa73b))
	g := &agentGen{r: r, text: newTextGen(r), w: &countWriter{w: bw}}
	g.t = time.Date(2025, 10, 1, 8, 0, 0, 0, time.UTC).Add(time.Duration(seed%5000) * 7 * time.Hour)
	return g, bw
}

// line writes v as one JSON line.
func (g *agentGen) line(v any) {
	if g.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err == nil {
		_, err = g.w.Write(append(data, '\n'))
	}
	g.err = err
}

func (g *agentGen) stamp() string {
	g.t = g.t.Add(time.Duration(1+g.r.IntN(20000)) * time.Millisecond)
	return g.t.Format("2006-01-02T15:04:05.000Z")
}

func (g *agentGen) id() string {
	r := g.r
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", r.Uint32(), r.IntN(1<<16), r.IntN(1<<12), r.IntN(1<<12), r.Uint64()&(1<<48-1))
}

// file is a tool's output: numbered lines of a source file.
func (g *agentGen) file() string {
	var b strings.Builder
	for range 20 + g.r.IntN(300) {
		fmt.Fprintf(&b, "%6d\t", g.r.IntN(9999))
		g.text.filler(&b, 4+g.r.IntN(10))
		b.WriteByte('\n')
	}
	return b.String()
}

func (g *agentGen) done(bw *bufio.Writer) (int64, error) {
	if g.err == nil {
		g.err = bw.Flush()
	}
	return g.w.n, g.err
}

type obj = map[string]any

// CodexRollout writes a Codex CLI rollout of at least size bytes to w and
// returns the bytes written and the turns an import keeps: session_meta,
// the developer and injected user items, then exchanges of a prompt (a
// user item and its user_message event), a turn_context, reasoning, a
// shell call and its output, and the answer (an agent_message event and
// the assistant item), with token counts; the thread is named after the
// first exchange. The same size and seed give the same bytes.
func CodexRollout(w io.Writer, size int64, seed uint64) (written int64, turns int, err error) {
	g, bw := newAgentGen(w, seed)
	session, cwd := g.id(), "/home/mara/src/"+pick(g.r, genProjects)
	g.line(obj{"timestamp": g.stamp(), "type": "session_meta", "payload": obj{"id": session, "timestamp": g.stamp(),
		"cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.46.0", "source": "cli", "model_provider": "openai"}})
	g.line(obj{"timestamp": g.stamp(), "type": "response_item", "payload": obj{"type": "message", "role": "developer",
		"content": []any{obj{"type": "input_text", "text": "<permissions instructions>\nsandbox_mode is workspace-write.\n</permissions instructions>"}}}})
	g.line(obj{"timestamp": g.stamp(), "type": "response_item", "payload": obj{"type": "message", "role": "user",
		"content": []any{obj{"type": "input_text", "text": "<environment_context>\n  <cwd>" + cwd + "</cwd>\n</environment_context>"}}}})
	item := func(role, kind, text string) obj {
		return obj{"timestamp": g.stamp(), "type": "response_item", "payload": obj{"type": "message", "role": role,
			"content": []any{obj{"type": kind, "text": text}}}}
	}
	event := func(payload obj) obj { return obj{"timestamp": g.stamp(), "type": "event_msg", "payload": payload} }
	for i := 0; g.w.n < size && g.err == nil; i++ {
		prompt := g.text.english("Mara")
		g.line(item("user", "input_text", prompt))
		g.line(event(obj{"type": "user_message", "message": prompt, "images": []any{}}))
		g.line(obj{"timestamp": g.stamp(), "type": "turn_context", "payload": obj{"cwd": cwd, "approval_policy": "on-request", "model": "gpt-5-codex"}})
		g.line(obj{"timestamp": g.stamp(), "type": "response_item", "payload": obj{"type": "reasoning",
			"summary": []any{obj{"type": "summary_text", "text": "**Reading the code**"}}, "encrypted_content": fmt.Sprintf("gAAAAAB%064x", g.r.Uint64())}})
		call := fmt.Sprintf("call_%016x", g.r.Uint64())
		g.line(obj{"timestamp": g.stamp(), "type": "response_item", "payload": obj{"type": "function_call", "name": "shell",
			"arguments": fmt.Sprintf(`{"command":["bash","-lc","cat %s.go"],"workdir":%q}`, pick(g.r, genTech), cwd), "call_id": call}})
		out, _ := json.Marshal(obj{"output": g.file(), "metadata": obj{"exit_code": 0, "duration_seconds": 0.1}})
		g.line(obj{"timestamp": g.stamp(), "type": "response_item", "payload": obj{"type": "function_call_output", "call_id": call, "output": string(out)}})
		answer := g.text.assistant()
		g.line(event(obj{"type": "agent_message", "message": answer}))
		g.line(item("assistant", "output_text", answer))
		g.line(event(obj{"type": "token_count", "info": obj{"total_token_usage": obj{"input_tokens": 1000 * i, "output_tokens": 100 * i}}}))
		g.line(event(obj{"type": "task_complete", "last_agent_message": answer}))
		if i == 0 {
			g.line(event(obj{"type": "thread_name_updated", "thread_id": session, "thread_name": pick(g.r, genProjects) + " fixes"}))
		}
		turns += 2
	}
	written, err = g.done(bw)
	return written, turns, err
}

// GeminiSession writes a Gemini CLI session log (the JSONL form) of at
// least size bytes to w and returns the bytes written and the turns an
// import keeps: the metadata line, then exchanges of a prompt, a gemini
// message with a tool call written twice (executing, then with its
// result), the tool's result as a user message, and the answer, each
// followed by a $set of lastUpdated; the session is named after the first
// exchange. The same size and seed give the same bytes.
func GeminiSession(w io.Writer, size int64, seed uint64) (written int64, turns int, err error) {
	g, bw := newAgentGen(w, seed)
	session, cwd := g.id(), "/home/ines/src/"+pick(g.r, genProjects)
	g.line(obj{"sessionId": session, "projectHash": fmt.Sprintf("%016x%016x", g.r.Uint64(), g.r.Uint64()),
		"startTime": g.stamp(), "lastUpdated": g.stamp(), "kind": "main", "directories": []string{cwd}})
	for i := 0; g.w.n < size && g.err == nil; i++ {
		g.line(obj{"id": g.id(), "timestamp": g.stamp(), "type": "user", "content": []any{obj{"text": g.text.english("Ines")}}})
		id, call := g.id(), fmt.Sprintf("read_file-%d", g.r.Uint64())
		at := g.stamp()
		tool := obj{"id": call, "name": "read_file", "args": obj{"file_path": cwd + "/" + pick(g.r, genTech) + ".go"}, "status": "executing"}
		thoughts := []any{obj{"subject": "Reading the code", "description": g.text.english("Gemini"), "timestamp": at}}
		g.line(obj{"id": id, "timestamp": at, "type": "gemini", "content": "", "toolCalls": []any{tool}, "thoughts": thoughts, "model": "gemini-2.5-pro"})
		result := []any{obj{"functionResponse": obj{"id": call, "name": "read_file", "response": obj{"output": g.file()}}}}
		tool["status"], tool["result"] = "success", result
		g.line(obj{"id": id, "timestamp": at, "type": "gemini", "content": "", "toolCalls": []any{tool}, "thoughts": thoughts, "model": "gemini-2.5-pro"})
		g.line(obj{"id": g.id(), "timestamp": g.stamp(), "type": "user", "content": result})
		g.line(obj{"id": g.id(), "timestamp": g.stamp(), "type": "gemini", "content": g.text.assistant(), "thoughts": []any{},
			"tokens": obj{"input": 1000 * i, "output": 80}, "model": "gemini-2.5-pro"})
		set := obj{"lastUpdated": g.stamp()}
		if i == 0 {
			set["summary"] = pick(g.r, genProjects) + " changes"
		}
		g.line(obj{"$set": set})
		turns += 2
	}
	written, err = g.done(bw)
	return written, turns, err
}
