package scale

// Claude Code transcripts for the import benchmarks (issue 26: "a 200 MiB
// Claude Code transcript must not be held whole in memory"): the JSONL
// ~/.claude/projects/*/SESSION.jsonl files hold, with the mix of lines a
// coding session writes. Most of the bytes are mechanics the importer
// drops (tool results with whole files in them, progress lines, file
// history snapshots); the prompts and answers are a small part, as in a
// real session.

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// ClaudeCodeSeed is the seed of the Claude Code transcript benchmarks.
const ClaudeCodeSeed uint64 = 26

// ClaudeCodeTranscript writes one Claude Code session transcript of at
// least size bytes to w and returns the number of bytes written and of
// turns (user prompts and assistant texts) the importer keeps from it.
// Each exchange is a prompt, an assistant line with text and a tool call,
// the tool's result (a file's worth of text, the bulk of the bytes), a
// progress line and the assistant's answer; now and then a file history
// snapshot. Every line's parentUuid is the line before, as Claude Code
// writes a session without edits. The same size and seed give the same
// bytes.
func ClaudeCodeTranscript(w io.Writer, size int64, seed uint64) (written int64, turns int, err error) {
	return claudeCode(w, size, seed, false)
}

// ClaudeCodeTextHeavy writes a transcript as ClaudeCodeTranscript does,
// but whose bytes are nearly all kept text: each prompt pastes a long log
// and each answer is long, with no tool calls. It is the worst case for
// an importer's memory, which holds what it keeps.
func ClaudeCodeTextHeavy(w io.Writer, size int64, seed uint64) (written int64, turns int, err error) {
	return claudeCode(w, size, seed, true)
}

func claudeCode(w io.Writer, size int64, seed uint64, textHeavy bool) (written int64, turns int, err error) {
	r := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	g := newTextGen(r)
	session := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", r.Uint32(), r.IntN(1<<16), r.IntN(1<<12), r.IntN(1<<12), r.Uint64()&(1<<48-1))
	cwd := "/home/mara/src/" + pick(r, genProjects)
	t := time.Date(2025, 8, 14, 9, 0, 0, 0, time.UTC)
	n := 0
	parent := ""
	newID := func() string {
		n++
		return fmt.Sprintf("%08x-0000-4000-8000-%012x", seed&0xffffffff, n)
	}
	line := func(v map[string]any) error {
		id := newID()
		v["uuid"], v["sessionId"], v["cwd"], v["version"] = id, session, cwd, "1.0.80"
		v["timestamp"] = t.Format("2006-01-02T15:04:05.000Z")
		v["isSidechain"], v["userType"] = false, "external"
		if parent == "" {
			v["parentUuid"] = nil
		} else {
			v["parentUuid"] = parent
		}
		parent = id
		t = t.Add(time.Duration(1+r.IntN(20)) * time.Second)
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		data = append(data, '\n')
		k, err := w.Write(data)
		written += int64(k)
		return err
	}
	msg := func(role string, content any) map[string]any {
		m := map[string]any{"role": role, "content": content}
		if role == "assistant" {
			m["model"], m["id"] = "claude-sonnet-4-5", fmt.Sprintf("msg_%016x", r.Uint64())
		}
		return m
	}
	for written < size && textHeavy {
		var paste strings.Builder
		paste.WriteString(g.english("Mara"))
		paste.WriteString("\n\n")
		for range 20 + r.IntN(200) {
			g.filler(&paste, 8)
			paste.WriteByte('\n')
		}
		if err := line(map[string]any{"type": "user", "message": msg("user", paste.String())}); err != nil {
			return written, turns, err
		}
		var answer strings.Builder
		for range 3 + r.IntN(20) {
			answer.WriteString(g.assistant())
			answer.WriteString("\n\n")
		}
		if err := line(map[string]any{"type": "assistant", "message": msg("assistant", []any{
			map[string]any{"type": "text", "text": answer.String()}})}); err != nil {
			return written, turns, err
		}
		turns += 2
	}
	for written < size {
		if err := line(map[string]any{"type": "user", "message": msg("user", g.english("Mara"))}); err != nil {
			return written, turns, err
		}
		tool := fmt.Sprintf("toolu_%016x", r.Uint64())
		if err := line(map[string]any{"type": "assistant", "message": msg("assistant", []any{
			map[string]any{"type": "text", "text": g.assistant()},
			map[string]any{"type": "tool_use", "id": tool, "name": "Read",
				"input": map[string]any{"file_path": cwd + "/" + pick(r, genTech) + ".go"}},
		})}); err != nil {
			return written, turns, err
		}
		var file strings.Builder
		for range 20 + r.IntN(300) {
			fmt.Fprintf(&file, "%6d\t", r.IntN(9999))
			g.filler(&file, 4+r.IntN(10))
			file.WriteByte('\n')
		}
		if err := line(map[string]any{"type": "user", "toolUseResult": map[string]any{"type": "text", "file": map[string]any{"content": file.String()}},
			"message": msg("user", []any{map[string]any{"type": "tool_result", "tool_use_id": tool, "content": file.String()}})}); err != nil {
			return written, turns, err
		}
		if err := line(map[string]any{"type": "progress", "data": map[string]any{"type": "hook_progress", "message": g.assistant()}}); err != nil {
			return written, turns, err
		}
		if err := line(map[string]any{"type": "assistant", "message": msg("assistant", []any{
			map[string]any{"type": "thinking", "thinking": g.assistant(), "signature": fmt.Sprintf("%064x", r.Uint64())},
			map[string]any{"type": "text", "text": g.assistant()},
		})}); err != nil {
			return written, turns, err
		}
		turns += 3
		if r.IntN(10) == 0 {
			snap := map[string]any{"type": "file-history-snapshot", "messageId": newID(), "isSnapshotUpdate": false,
				"snapshot": map[string]any{"trackedFileBackups": map[string]any{}, "timestamp": t.Format(time.RFC3339)}}
			data, err := json.Marshal(snap)
			if err != nil {
				return written, turns, err
			}
			k, err := w.Write(append(data, '\n'))
			written += int64(k)
			if err != nil {
				return written, turns, err
			}
		}
	}
	return written, turns, nil
}
