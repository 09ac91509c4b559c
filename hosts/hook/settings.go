package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"

	"scriptorium/hosts/loopback"
)

// HookTimeoutSeconds is the timeout written on each installed entry. The
// hook bounds its own work far below it; the timeout only guards against
// a binary that hangs for reasons of its own (Claude Code's default for a
// command hook is ten minutes).
const HookTimeoutSeconds = 10

// member is one key of a JSON object with its value's bytes, so an object
// can be rebuilt in its original key order with untouched values.
type member struct {
	key string
	raw json.RawMessage
}

// parseObject decodes a JSON object into its members in file order.
func parseObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		ms = append(ms, member{key, raw})
	}
	if _, err := dec.Token(); err != nil { // the closing }
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON object")
	}
	return ms, nil
}

// encodeObject writes members back as one compact object.
func encodeObject(ms []member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// HTTPTimeoutSeconds is the timeout written on the prompt's HTTP handler:
// serve cuts its recall off after the hook's 3 s prompt deadline, so
// only a wedged server is waited for this long (a stopped one refuses the
// connection at once).
const HTTPTimeoutSeconds = 5

// Plan is what install writes: a command handler running Command for
// every event of Events, except UserPromptSubmit, which posts to URL
// (serve's HTTP hook) when URL is set. Replaces are the commands of this
// program's other form (the CLI or the small client), whose groups are
// replaced rather than joined.
type Plan struct {
	Command  string
	URL      string
	Replaces []string
}

// handler is one hook handler as the settings spell it.
type handler struct {
	Type    string `json:"type"`
	Command string `json:"command,omitempty"`
	URL     string `json:"url,omitempty"`
	Timeout int    `json:"timeout,omitempty"`
}

// handler is the plan's handler for event.
func (p Plan) handler(event string) handler {
	if p.URL != "" && event == EventUserPromptSubmit {
		return handler{Type: "http", URL: p.URL, Timeout: HTTPTimeoutSeconds}
	}
	return handler{Type: "command", Command: p.Command, Timeout: HookTimeoutSeconds}
}

// ours reports whether h is one of this program's handlers in any form:
// the plan's command or one it replaces, or an HTTP handler posting to a
// serve's hook path on this machine (on whatever port).
func (p Plan) ours(h handler) bool {
	switch h.Type {
	case "command":
		return h.Command == p.Command || slices.Contains(p.Replaces, h.Command)
	case "http":
		return OurURL(h.URL)
	}
	return false
}

// OurURL reports whether u is serve's HTTP hook on this machine: http, a
// loopback host, the path hookhttp serves.
func OurURL(u string) bool {
	pu, err := url.Parse(u)
	return err == nil && pu.Scheme == "http" && pu.Host != "" && loopback.Host(pu.Host) && pu.Path == HTTPPath &&
		pu.RawQuery == "" && pu.Fragment == "" && pu.User == nil
}

// HTTPPath is where serve answers the prompt hook (hosts/hookhttp.Path).
const HTTPPath = "/hooks/claude-code"

// same reports whether a and b run the same thing.
func (a handler) same(b handler) bool {
	return a.Type == b.Type && a.Command == b.Command && a.URL == b.URL
}

// group is one matcher group of a hook event, as far as the merge needs to
// read it.
type group struct {
	Hooks []handler `json:"hooks"`
}

// ourGroup is the matcher group install adds to an event: no matcher, so
// it runs for every trigger of the event.
func ourGroup(h handler) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string][]handler{"hooks": {h}})
	return bytes.TrimSpace(b.Bytes())
}

// hasHandler reports whether an event's groups already run h.
func hasHandler(groups []json.RawMessage, h handler) bool {
	for _, raw := range groups {
		var g group
		if json.Unmarshal(raw, &g) != nil {
			continue // not ours to judge: left as it is
		}
		for _, x := range g.Hooks {
			if x.same(h) {
				return true
			}
		}
	}
	return false
}

// replaceable reports whether raw is a group install added, in any of
// this program's forms (Plan.ours): no matcher or other key, one handler.
// Such a group is replaced rather than joined, so that a prompt never
// gets its context twice.
func replaceable(raw json.RawMessage, p Plan) bool {
	var keys map[string]json.RawMessage
	var g group
	if json.Unmarshal(raw, &keys) != nil || len(keys) != 1 || keys["hooks"] == nil || json.Unmarshal(raw, &g) != nil || len(g.Hooks) != 1 {
		return false
	}
	return p.ours(g.Hooks[0])
}

// mergeSettings adds, to the settings JSON data (empty for a new file), the
// plan's handler to every event in Events that does not run it yet; a
// group of this program's in another form is replaced by it.
// Keys keep their order and values their bytes; only whitespace is
// re-indented, in the file's own indent unit. It returns the new bytes and
// the events it added; none added means data is returned unchanged.
func mergeSettings(data []byte, p Plan) ([]byte, []string, error) {
	top := []member{}
	if len(bytes.TrimSpace(data)) > 0 {
		var err error
		if top, err = parseObject(data); err != nil {
			return nil, nil, fmt.Errorf("not a JSON settings object: %w", err)
		}
	}
	hi := -1
	for i, m := range top {
		if m.key == "hooks" {
			hi = i
		}
	}
	events := []member{}
	if hi >= 0 {
		var err error
		if events, err = parseObject(top[hi].raw); err != nil {
			return nil, nil, fmt.Errorf(`"hooks" is not a JSON object: %w`, err)
		}
	}
	var added []string
	for _, ev := range Events {
		ei := -1
		for i, m := range events {
			if m.key == ev {
				ei = i
			}
		}
		var groups []json.RawMessage
		if ei >= 0 {
			if err := json.Unmarshal(events[ei].raw, &groups); err != nil {
				return nil, nil, fmt.Errorf(`"hooks.%s" is not a JSON array: %w`, ev, err)
			}
		}
		h := p.handler(ev)
		if hasHandler(groups, h) {
			continue
		}
		added = append(added, ev)
		replaced := false
		for i, g := range groups {
			if !replaced && replaceable(g, p) {
				groups[i], replaced = ourGroup(h), true
			}
		}
		if !replaced {
			groups = append(groups, ourGroup(h))
		}
		raw := append([]byte{'['}, bytes.Join(rawBytes(groups), []byte{','})...)
		raw = append(raw, ']')
		if ei >= 0 {
			events[ei].raw = raw
		} else {
			events = append(events, member{ev, raw})
		}
	}
	if len(added) == 0 {
		return data, nil, nil
	}
	if hi >= 0 {
		top[hi].raw = encodeObject(events)
	} else {
		top = append(top, member{"hooks", encodeObject(events)})
	}
	var out bytes.Buffer
	if err := json.Indent(&out, encodeObject(top), "", indentUnit(data)); err != nil {
		return nil, nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), added, nil
}

func rawBytes(rs []json.RawMessage) [][]byte {
	out := make([][]byte, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}

// indentUnit is the indentation of the first indented line of data (two
// spaces when there is none): the file keeps the style it was written in.
func indentUnit(data []byte) string {
	for _, line := range bytes.Split(data, []byte("\n"))[1:] {
		n := len(line) - len(bytes.TrimLeft(line, " \t"))
		if n > 0 && n < len(line) {
			return string(line[:n])
		}
	}
	return "  "
}

// Snippet is the settings JSON `hook install --print` shows: the hooks
// object alone, to merge by hand.
func Snippet(p Plan) []byte {
	out, _, _ := mergeSettings(nil, p)
	return out
}
