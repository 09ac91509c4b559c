package main

import (
	"fmt"
	"strings"
	"time"
)

// shot is one screenshot: the keys that lead to it from where the previous
// shot left the TUI, and the waits for its data.
type shot struct {
	name string
	take func(s *session, timeout time.Duration) (string, error)
}

// The demo facts the flow relies on: the file whose blocks cite the group
// chat, and the search word.
const (
	topicFile   = "topics/people/dana-okafor.md"
	searchQuery = "database"
)

// shots are taken in order; each starts where the previous one ended.
var shots = []shot{
	{"pending", func(s *session, to time.Duration) (string, error) {
		v, _, err := s.waitFor("the pending sources", to, contains("sources in", "record, verbatim:"))
		return v, err
	}},
	{"topics", func(s *session, to time.Duration) (string, error) {
		s.press("2")
		if _, _, err := s.waitFor("the topic tree", to, contains("Blocks  topics/")); err != nil {
			return "", err
		}
		if err := s.pressUntil("down", "the file "+topicFile, to, contains("Blocks  "+topicFile, "Footnotes")); err != nil {
			return "", err
		}
		// Into the blocks, the second block (it cites the group chat), and
		// into its footnotes: the cursor rests on the cited source.
		if err := s.keys(to, "right", "down", "right"); err != nil {
			return "", err
		}
		v, _, err := s.waitFor("the footnote cursor", to, func(plain string) bool {
			return strings.Contains(plain, "› telegram/team-chat/")
		})
		return v, err
	}},
	{"drilldown", func(s *session, to time.Duration) (string, error) {
		s.press("enter")
		v, _, err := s.waitFor("the source archive", to, contains("› source", "Source archive", "drilled to"))
		return v, err
	}},
	{"core", func(s *session, to time.Duration) (string, error) {
		s.press("3")
		v, _, err := s.waitFor("the core budget", to, contains("tokens ·", "excluded (overflow)"))
		return v, err
	}},
	{"passes", func(s *session, to time.Duration) (string, error) {
		s.press("4")
		if _, _, err := s.waitFor("the passes", to, contains("newest first")); err != nil {
			return "", err
		}
		// The newest pass of the demo changed nothing; select the one with diffs.
		err := s.pressUntil("down", "a pass with diffs", to, func(plain string) bool {
			return selectedLine(plain, "› #", "changed") && strings.Contains(plain, "@@")
		})
		if err != nil {
			return "", err
		}
		v, _, err := s.waitFor("the diff", to, contains("@@"))
		return v, err
	}},
	{"proposal", func(s *session, to time.Duration) (string, error) {
		// The demo's third pass waits for the owner: the top of the list.
		s.press("g")
		v, _, err := s.waitFor("the proposal", to, contains("› proposal", "file 1/", "a accept file"))
		return v, err
	}},
	{"search", func(s *session, to time.Duration) (string, error) {
		s.press("5")
		if _, _, err := s.waitFor("the search pane", to, contains("[5 Search]")); err != nil {
			return "", err
		}
		s.press("/")
		s.typeText(searchQuery)
		if _, _, err := s.waitFor("the query", to, contains(searchQuery)); err != nil {
			return "", err
		}
		s.press("enter")
		v, _, err := s.waitFor("the results", to, contains("sorted by"))
		return v, err
	}},
	{"status", func(s *session, to time.Duration) (string, error) {
		s.press("6")
		v, _, err := s.waitFor("the status", to, contains("[6 Status]", "provider"))
		return v, err
	}},
	{"audit", func(s *session, to time.Duration) (string, error) {
		s.press("7")
		if _, _, err := s.waitFor("the audit trail", to, contains("[7 Audit]", "entries, newest first")); err != nil {
			return "", err
		}
		// The demo's rejection of a forged frame: its reason and source.
		if err := s.pressUntil("down", "the rejection", to, func(plain string) bool {
			return selectedLine(plain, "› ", " reject ")
		}); err != nil {
			return "", err
		}
		v, _, err := s.waitFor("its detail", to, contains("reason: forges an archive frame"))
		return v, err
	}},
	{"explain", func(s *session, to time.Duration) (string, error) {
		// The demo's core overflows its budget: why the last block is out.
		s.press("3")
		if _, _, err := s.waitFor("the core budget", to, contains("tokens ·", "excluded (overflow)")); err != nil {
			return "", err
		}
		if err := s.keys(to, "G", "e"); err != nil {
			return "", err
		}
		v, _, err := s.waitFor("the explanation", to, contains("is excluded", "budget"))
		return v, err
	}},
	{"forget", func(s *session, to time.Duration) (string, error) {
		// The preview of forgetting the first pending record's speaker;
		// esc leaves it, nothing is forgotten.
		s.press("1")
		if _, _, err := s.waitFor("the pending sources", to, contains("sources in")); err != nil {
			return "", err
		}
		s.press("F")
		v, _, err := s.waitFor("the forget preview", to, contains("Forget "))
		if err == nil {
			s.press("esc")
		}
		return v, err
	}},
	{"move", func(s *session, to time.Duration) (string, error) {
		// The topic picker of M on a block of the topics pane, completing
		// over the topic files; esc leaves it, nothing moves.
		s.press("2")
		if _, _, err := s.waitFor("the topics pane", to, contains("Blocks  "+topicFile)); err != nil {
			return "", err
		}
		if err := s.keys(to, "left", "left", "right", "M"); err != nil {
			return "", err
		}
		s.typeText("homelab")
		v, _, err := s.waitFor("the topic picker", to, contains("Move ^", "to: homelab", "topics/projects/homelab/backups.md"))
		if err == nil {
			s.press("esc")
		}
		return v, err
	}},
}

// keys presses keys one at a time, as a person does, letting the screen
// settle after each. Faster presses can reorder the TUI's load requests,
// which travel through separate commands, and leave a pane loading.
func (s *session) keys(timeout time.Duration, keys ...string) error {
	for _, k := range keys {
		s.press(k)
		if _, _, err := s.waitFor("the screen after "+k, timeout, func(string) bool { return true }); err != nil {
			return err
		}
	}
	return nil
}

// pressUntil presses key until the settled screen satisfies ok, at most
// 50 times.
func (s *session) pressUntil(key, what string, timeout time.Duration, ok func(string) bool) error {
	for range 50 {
		_, plain, err := s.waitFor(what, timeout, func(string) bool { return true })
		if err != nil {
			return err
		}
		if ok(plain) {
			return nil
		}
		s.press(key)
	}
	return fmt.Errorf("pressed %s 50 times and never saw %s", key, what)
}

// selectedLine reports whether a line holds all the given texts.
func selectedLine(plain string, texts ...string) bool {
	for _, line := range strings.Split(plain, "\n") {
		if contains(texts...)(line) {
			return true
		}
	}
	return false
}
