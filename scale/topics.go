package scale

// Topic files, the second phase of Workspace: one block per ten records,
// each citing one to three archived records, and the manifest's inputs for
// installs and searches. The topic bodies are the only whole-workspace
// text held in memory (about a tenth of the bytes).

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"scriptorium/workspace/topic"
)

// generator holds one Workspace run.
type generator struct {
	r       *rand.Rand
	tg      *textGen
	memDir  string
	m       *Manifest
	threads []*genThread
	counts  []int // records per thread
	cites   citeTable
}

// Workspace writes a workspace of n source records under memDir (which must
// be empty or missing) and returns its manifest. The same n and seed always
// give the same bytes. Archives are written one at a time as they are
// drawn, so memory grows with the topic text and a small table per record,
// not with the archives: a million records stay well under 1 GiB.
func Workspace(memDir string, n int, seed uint64) (Manifest, error) {
	if n < 1 {
		return Manifest{}, fmt.Errorf("generate: %d records: want at least 1", n)
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	g := &generator{r: r, tg: newTextGen(r), memDir: memDir, m: &Manifest{Version: Version, Records: n}}
	g.makeThreads(n)
	if err := g.writeArchives(); err != nil {
		return Manifest{}, err
	}
	g.pickFilter()
	if err := g.writeTopics(n); err != nil {
		return Manifest{}, err
	}
	g.m.Queries = genBenchQueries(rand.New(rand.NewPCG(seed, 7)), g.tg)
	return *g.m, nil
}

// writeTopics draws the topic files and their blocks, writes them, and
// fills the manifest's edit targets and citable sources.
func (g *generator) writeTopics(n int) error {
	r, m := g.r, g.m
	// Twenty blocks a file, plus a topics/core.md longer than the
	// 2000-token budget.
	nBlocks := n / 10
	nFiles := max(10, nBlocks/20)
	files := topicPaths(r, nFiles)
	taken := map[string]bool{}
	type block struct{ id, file string }
	var made []block
	bodies := map[string]*strings.Builder{}
	labels := map[string]map[string]bool{}
	order := append([]string{"topics/core.md"}, files...)
	for _, f := range order {
		bodies[f] = &strings.Builder{}
		labels[f] = map[string]bool{}
		title := strings.TrimSuffix(path.Base(f), ".md")
		fmt.Fprintf(bodies[f], "# %s\n", strings.ToUpper(title[:1])+title[1:])
	}
	nCites := len(g.cites.refs)
	coreBlocks := 80
	for bi := range nBlocks + coreBlocks {
		f := "topics/core.md"
		if bi >= coreBlocks {
			f = files[r.IntN(len(files))]
		}
		b := bodies[f]
		id := topic.UniqueBlockID(fmt.Sprintf("bench-block-%d", bi), func(s string) bool { return taken[s] })
		taken[id] = true
		// One to three cited sources; a pending one makes the block pending,
		// which happens for a few blocks as it does in real workspaces.
		var cs []cite
		for range 1 + r.IntN(3) {
			c := g.cite(r.IntN(nCites))
			if c.pending && r.IntN(4) != 0 {
				continue
			}
			cs = append(cs, c)
		}
		if len(cs) == 0 {
			cs = append(cs, g.cite(0))
		}
		newest := cs[0].t
		def := topic.Definition{Label: topic.UniqueFootnoteLabel(id, func(s string) bool { return labels[f][s] })}
		labels[f][def.Label] = true
		for _, c := range cs {
			if c.t.After(newest) {
				newest = c.t
			}
			rel, err := filepath.Rel(path.Dir(f), c.path)
			if err != nil {
				return err
			}
			def.Sources = append(def.Sources, topic.Citation{SourceID: c.id, Path: filepath.ToSlash(rel)})
		}
		def.Date = newest.Format(time.DateOnly)

		if r.IntN(15) == 0 {
			fmt.Fprintf(b, "\n## %s\n", pick(r, genProjects))
		}
		b.WriteByte('\n')
		var text strings.Builder
		if r.IntN(5) == 0 {
			fmt.Fprintf(&text, "%s在%s负责%s。", pick(r, genPeopleZH), pick(r, genPlacesZH), pick(r, genProjectsZH))
		} else {
			fmt.Fprintf(&text, "%s works on the %s with %s in %s.", pick(r, genPeople), pick(r, genProjects), pick(r, genTech), pick(r, genPlaces))
		}
		text.WriteString(" " + cs[0].words)
		line := oneLine(text.String())
		if len(made) > 0 && r.IntN(10) == 0 {
			// A link to an earlier block, possibly in another file.
			to := made[r.IntN(len(made))]
			rel, err := filepath.Rel(path.Dir(f), to.file)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" See [related](%s#^%s).", filepath.ToSlash(rel), to.id)
		}
		if r.IntN(12) == 0 {
			fmt.Fprintf(b, "- %s\n- %s[^%s] ^%s\n", pick(r, genProjects), line, def.Label, id)
		} else {
			fmt.Fprintf(b, "%s[^%s] ^%s\n", line, def.Label, id)
		}
		fmt.Fprintf(b, "\n%s\n", topic.FormatDefinition(def))
		made = append(made, block{id, f})
		m.Blocks++
	}
	for _, f := range order {
		data := bodies[f].String()
		if err := writeFile(g.memDir, f, []byte(data)); err != nil {
			return err
		}
		m.Bytes += len(data)
	}
	m.TopicFiles = len(order)

	// Small topic files to append to: the five with the fewest bytes.
	small := slices.Clone(files)
	sort.Slice(small, func(i, j int) bool {
		if a, b := bodies[small[i]].Len(), bodies[small[j]].Len(); a != b {
			return a < b
		}
		return small[i] < small[j]
	})
	m.EditTopics = small[:min(5, len(small))]
	for len(m.Cites) < 20 {
		c := g.cite(r.IntN(nCites))
		if !c.pending {
			m.Cites = append(m.Cites, Cite{SourceID: c.id, Archive: c.path, Date: c.t.Format(time.DateOnly)})
		}
	}
	return nil
}

// topicPaths returns n distinct topic file paths in a few folders.
func topicPaths(r *rand.Rand, n int) []string {
	seen := map[string]bool{"topics/core.md": true}
	var out []string
	for i := 0; len(out) < n; i++ {
		var p string
		switch r.IntN(4) {
		case 0:
			p = "topics/people/" + strings.ToLower(pick(r, genPeople))
		case 1:
			p = "topics/projects/" + strings.ReplaceAll(pick(r, genProjects), " ", "-")
		case 2:
			p = "topics/places/" + strings.ToLower(strings.ReplaceAll(pick(r, genPlaces), " ", "-"))
		default:
			p = fmt.Sprintf("topics/journal/%d/%02d", 2024+r.IntN(2), 1+r.IntN(12))
		}
		if seen[p+".md"] {
			p = fmt.Sprintf("%s-%d", p, i)
		}
		seen[p+".md"] = true
		out = append(out, p+".md")
	}
	sort.Strings(out)
	return out
}

// genBenchQueries makes 200 search texts of one to four words: names,
// projects, tech terms, tail words and Chinese words, as users type them.
func genBenchQueries(r *rand.Rand, tg *textGen) []string {
	out := make([]string, 0, 200)
	for len(out) < 200 {
		var q string
		switch r.IntN(8) {
		case 0:
			q = pick(r, genPeople) + " " + pick(r, genProjects)
		case 1:
			q = pick(r, genTech) + " logs"
		case 2:
			q = pick(r, genProjectsZH) + " " + pick(r, genZH[:30])
		case 3:
			q = tg.tail[r.IntN(200)]
		case 4:
			q = pick(r, genFoods) + " " + pick(r, genPlaces)
		case 5:
			q = "budget " + pick(r, genProjects)
		case 6:
			q = pick(r, genPeopleZH) + " " + pick(r, genZH)
		default:
			q = pick(r, genTech) + " alert " + pick(r, genHead[len(genHead)/2:])
		}
		out = append(out, q)
	}
	return out
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// oneLine keeps a block on one line and free of characters that would
// start a footnote or block id by accident.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer("^", "", "[", "(", "]", ")").Replace(s)
}

func writeFile(memDir, rel string, data []byte) error {
	p := filepath.Join(memDir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	return nil
}
