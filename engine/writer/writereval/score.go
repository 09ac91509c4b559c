package writereval

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/writer/distill"
	"scriptorium/render"
	"scriptorium/workspace"
	"scriptorium/workspace/topic"
)

// Figures are what a writer made of (a part of) the labelled set, read
// from the topic files it left: the issue 22 §4 measures and every block
// that broke a rule.
type Figures struct {
	Turns, Gold, Blocks, Files int
	// Covered gold facts have an evidence turn some block cites; Precise
	// blocks cite a gold evidence turn; Chat blocks cite only chat,
	// narration or tool turns.
	Covered, Precise, Chat int
	// BlockRunes is the blocks' text (ids and footnote markers aside),
	// TurnRunes the turns' text.
	BlockRunes, TurnRunes               int
	Coverage, Precision, Size, ChatRate float64
	// Invented are blocks with a content word none of their cited turns
	// holds; FirstPerson blocks speak as "I"/"we"; UUIDNamed files are
	// named by a bare id.
	Invented, FirstPerson []Finding
	UUIDNamed             []string
}

// Finding is one block that breaks a rule.
type Finding struct {
	Path, Text string
	Words      []string
}

func (f Finding) String() string { return fmt.Sprintf("%s: %q (%q)", f.Path, f.Text, f.Words) }

// String is the one-line summary the tests log.
func (f Figures) String() string {
	return fmt.Sprintf("%d turns, %d gold facts, %d blocks in %d files: coverage %.3f, precision %.3f, size %.3f, chat %.3f, %d invented, %d first-person",
		f.Turns, f.Gold, f.Blocks, f.Files, f.Coverage, f.Precision, f.Size, f.ChatRate, len(f.Invented), len(f.FirstPerson))
}

// markers are footnote references, which are not block text.
var markers = regexp.MustCompile(`\[\^[^\]]+\]`)

// uuidName matches a file named by a bare UUID or a provider and one.
var uuidName = regexp.MustCompile(`(?i)^([a-z-]+-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// Score reads the topic files of the state dir state (topics/core.md
// aside: it is the owner's, and a writer only proposes to it) and scores
// every block against the gold of set. It reads the files as they are on
// disk, so the state must be at rest (no write running).
func Score(state string, set enginetest.DistillSet) (Figures, error) {
	var fig Figures
	class, evidence := map[string]string{}, map[string]bool{}
	turns := map[string]enginetest.DistillTurn{}
	names := []string{distill.DefaultOwnerName, "The owner", "the assistant", "The assistant"}
	for _, tr := range set.Turns {
		turns[tr.Ref()] = tr
		fig.TurnRunes += utf8.RuneCountInString(tr.Content)
		if tr.SpeakerDisplay != "" {
			names = append(names, tr.SpeakerDisplay)
		}
	}
	fig.Turns = len(set.Turns)
	for _, c := range set.Convs {
		for _, tt := range c.Turns {
			class[tt.Ref] = tt.Class
		}
		for _, f := range c.Facts {
			for _, ev := range f.Evidence {
				evidence[ev] = true
			}
		}
		if p := distill.ProjectName(c.Project); p != "" {
			names = append(names, p)
		}
	}
	paths, err := topicPaths(workspace.MemoryDir(state))
	if err != nil {
		return fig, err
	}
	cited := map[string]bool{}
	for _, p := range paths {
		if p == render.CoreTopicPath {
			continue
		}
		fig.Files++
		if base := strings.TrimSuffix(filepath.Base(p), ".md"); uuidName.MatchString(base) {
			fig.UUIDNamed = append(fig.UUIDNamed, p)
		}
		data, err := os.ReadFile(filepath.Join(workspace.MemoryDir(state), filepath.FromSlash(p)))
		if err != nil {
			return fig, err
		}
		f, _ := topic.Parse(data)
		defs := f.Definitions()
		for _, el := range f.Blocks() {
			text := strings.TrimSpace(markers.ReplaceAllString(topic.BlockText(el), ""))
			fig.Blocks++
			fig.BlockRunes += utf8.RuneCountInString(text)
			precise, onlyChat := false, true
			var ev []distill.Evidence
			for _, r := range el.Refs {
				d := defs[r.Label]
				if d == nil {
					continue
				}
				for _, s := range d.Sources {
					cited[s.SourceID] = true
					precise = precise || evidence[s.SourceID]
					switch class[s.SourceID] {
					case "chat", "narration", "tool":
					default:
						onlyChat = false
					}
					at, _ := time.Parse(time.RFC3339, turns[s.SourceID].Time)
					ev = append(ev, distill.Evidence{Text: turns[s.SourceID].Content, Time: at})
				}
			}
			if precise {
				fig.Precise++
			}
			if onlyChat {
				fig.Chat++
			}
			if miss := distill.Unsupported(text, ev, names...); len(miss) > 0 {
				fig.Invented = append(fig.Invented, Finding{Path: p, Text: text, Words: miss})
			}
			if fp := distill.FirstPersonWords(text); len(fp) > 0 {
				fig.FirstPerson = append(fig.FirstPerson, Finding{Path: p, Text: text, Words: fp})
			}
		}
	}
	for _, c := range set.Convs {
		for _, f := range c.Facts {
			fig.Gold++
			for _, ev := range f.Evidence {
				if cited[ev] {
					fig.Covered++
					break
				}
			}
		}
	}
	ratio := func(a, b int) float64 { return float64(a) / float64(max(b, 1)) }
	fig.Coverage, fig.Precision = ratio(fig.Covered, fig.Gold), ratio(fig.Precise, fig.Blocks)
	fig.Size, fig.ChatRate = ratio(fig.BlockRunes, fig.TurnRunes), ratio(fig.Chat, fig.Blocks)
	return fig, nil
}

// topicPaths lists the .md files under the workspace root's topics/, as
// slash paths from the root ("topics/people/mel.md"), sorted.
func topicPaths(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(filepath.Join(root, "topics"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil // nothing written yet
			}
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}
