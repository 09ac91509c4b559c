package main

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// conversation is one parsed file of convs/.
type conversation struct {
	file, session, split, provider, title, project string
	group                                          bool
	speakers                                       map[string]speaker
	turns                                          []turn
	facts                                          []fact
	questions                                      []question
}

type speaker struct {
	role, display, id, tier string
}

type turn struct {
	id, alias, class, content string
	facts                     []string
	time                      time.Time
	dayStart                  bool // the first turn after a day line: its time is the day line's
}

type fact struct{ id, subject, theme, text string }

type question struct {
	text  string
	facts []string
}

// classes maps a turn's tag to its class in gold.json.
var classes = map[string]string{"c": "chat", "q": "question", "n": "narration", "t": "tool"}

// parse reads one conversation file (format: ../README.md). Errors name the
// file and line.
func parse(file, src string) (*conversation, error) {
	c := &conversation{file: file, speakers: map[string]speaker{}}
	var clock time.Time
	newDay := false
	errf := func(n int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", file, n, fmt.Sprintf(format, args...))
	}
	for i, raw := range strings.Split(src, "\n") {
		n := i + 1
		line := strings.TrimRight(raw, " \t\r")
		if strings.HasPrefix(line, "|") {
			if len(c.turns) == 0 {
				return nil, errf(n, "continuation line before any turn")
			}
			t := &c.turns[len(c.turns)-1]
			t.content += "\n" + strings.TrimPrefix(strings.TrimPrefix(line, "|"), " ")
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch key {
		case "conversation":
			c.session = rest
		case "split":
			if rest != "dev" && rest != "heldout" && rest != "heldout2" && rest != "heldout3" && rest != "heldout4" && rest != "heldout5" && rest != "heldout6" && rest != "heldout7" && rest != "heldout8" && rest != "heldout9" && rest != "heldout10" && rest != "heldout11" && rest != "heldout12" && rest != "heldout13" && rest != "heldout14" && rest != "heldout15" && rest != "heldout16" && rest != "heldout17" && rest != "heldout18" && rest != "heldout19" {
				return nil, errf(n, "split is dev, heldout, heldout2, heldout3, heldout4, heldout5, heldout6, heldout7, heldout8, heldout9, heldout10, heldout11, heldout12, heldout13, heldout14, heldout15, heldout16, heldout17, heldout18 or heldout19, not %q", rest)
			}
			c.split = rest
		case "provider":
			c.provider = rest
		case "title":
			c.title = rest
		case "project":
			c.project = rest
		case "group":
			c.group = rest == "yes"
		case "speaker":
			alias, def, ok := strings.Cut(rest, "=")
			if !ok {
				return nil, errf(n, "speaker wants ALIAS = …")
			}
			alias, def = strings.TrimSpace(alias), strings.TrimSpace(def)
			switch def {
			case "owner":
				c.speakers[alias] = speaker{role: "user", tier: "owner"}
			case "assistant":
				c.speakers[alias] = speaker{role: "assistant", tier: "owner"}
			default:
				parts := trimAll(strings.Split(def, "|"))
				if len(parts) != 3 {
					return nil, errf(n, "a named speaker is NAME | ID | TIER")
				}
				c.speakers[alias] = speaker{role: "user", display: parts[0], id: parts[1], tier: parts[2]}
			}
		case "day":
			t, err := time.Parse("2006-01-02 15:04", rest)
			if err != nil {
				return nil, errf(n, "day: %v", err)
			}
			clock, newDay = t, true
		case "fact":
			parts := trimAll(strings.SplitN(rest, "|", 4))
			if len(parts) != 4 || parts[0] == "" || parts[3] == "" {
				return nil, errf(n, "fact wants ID | SUBJECT | THEME | TEXT")
			}
			if c.hasFact(parts[0]) {
				return nil, errf(n, "fact %s defined twice", parts[0])
			}
			c.facts = append(c.facts, fact{id: parts[0], subject: parts[1], theme: parts[2], text: parts[3]})
		case "ask":
			q, fs, ok := strings.Cut(rest, "=>")
			if !ok {
				return nil, errf(n, "ask wants QUESTION => FACT[, FACT]")
			}
			c.questions = append(c.questions, question{text: strings.TrimSpace(q), facts: trimAll(strings.Split(fs, ","))})
		default:
			t, err := parseTurn(c, key, rest)
			if err != nil {
				return nil, errf(n, "%v", err)
			}
			if clock.IsZero() {
				return nil, errf(n, "a turn before any day line")
			}
			t.id = fmt.Sprintf("t%03d", len(c.turns)+1)
			t.time, t.dayStart, newDay = clock, newDay, false
			c.turns = append(c.turns, t)
		}
	}
	// Within a day each turn comes a little after the one before: longer
	// turns take longer to write (continuation lines included).
	for i := 1; i < len(c.turns); i++ {
		if !c.turns[i].dayStart {
			c.turns[i].time = c.turns[i-1].time.Add(gap(c.turns[i-1].content))
		}
	}
	switch {
	case c.session == "" || c.provider == "" || c.split == "":
		return nil, fmt.Errorf("%s: conversation, provider and split are required", file)
	case len(c.turns) == 0:
		return nil, fmt.Errorf("%s: no turns", file)
	}
	return c, nil
}

// gap is the time after a turn before the next one: a minute plus one per
// 80 characters, at most 9.
func gap(content string) time.Duration {
	m := 1 + utf8.RuneCountInString(content)/80
	return time.Duration(min(m, 9))*time.Minute + 17*time.Second
}

// parseTurn reads "TAG ALIAS: text" where TAG is c, q, n, t or f:ID[,ID].
func parseTurn(c *conversation, tag, rest string) (turn, error) {
	alias, text, ok := strings.Cut(rest, ":")
	if !ok {
		return turn{}, fmt.Errorf("unknown line %q", tag+" "+rest)
	}
	alias = strings.TrimSpace(alias)
	if _, known := c.speakers[alias]; !known {
		return turn{}, fmt.Errorf("unknown speaker %q", alias)
	}
	t := turn{alias: alias, content: strings.TrimSpace(text)}
	if ids, isFact := strings.CutPrefix(tag, "f:"); isFact {
		t.class = "fact"
		t.facts = trimAll(strings.Split(ids, ","))
		return t, nil
	}
	cls, known := classes[tag]
	if !known {
		return turn{}, fmt.Errorf("unknown turn tag %q (c, q, n, t or f:ID)", tag)
	}
	t.class = cls
	return t, nil
}
