package sleep

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/trust"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// sleepRandomWorkspace writes a valid random workspace: files in two
// directory levels, sentences drawn from a small pool (so exact and near
// duplicates occur within and across files), "## " sections, footnotes
// citing random sources, and links to random blocks, some with stale paths
// that point at the wrong file.
func sleepRandomWorkspace(t *testing.T, seed uint64) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	state := t.TempDir()
	mem := filepath.Join(state, "memory")
	var recs []archive.Record
	for i := 1; i <= 12; i++ {
		recs = append(recs, archive.Record{SourceID: fmt.Sprintf("openprogram/sess-r/m%d", i), SpeakerID: "u1",
			SpeakerDisplay: "R", Time: time.Date(2024, 3, i, 9, 0, 0, 0, time.UTC), Content: fmt.Sprintf("message %d", i)})
	}
	data, _, err := archive.Append(nil, recs)
	if err != nil {
		t.Fatal(err)
	}
	arch := "sources/openprogram/_v2/sess-r.md"
	if err := os.MkdirAll(filepath.Join(mem, "sources", "openprogram", "_v2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mem, filepath.FromSlash(arch)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	pool := []string{
		"Craig is building a budget tracker in Flask, due 2024-04-15.",
		"Craig is building a budget tracker in Flask, due on 2024-04-15.",
		"craig is building a Budget Tracker in Flask: due 2024-04-15!",
		"Craig is not building a budget tracker in Flask, due 2024-04-15.",
		"Dana prefers tea over coffee in the morning and water in the evening.",
		"Dana prefers tea over coffee in the morning and juice in the evening.",
		"The team meets every Tuesday at ten in the small room on the second floor.",
		"The team meets every Tuesday at ten in the small room on the third floor.",
		"Eve moved to Lisbon in spring and works remotely for a Berlin startup.",
		"Frank's cat is called Miso.",
	}
	paths := []string{"topics/core.md", "topics/a.md", "topics/b.md", "topics/people/c.md", "topics/people/d.md"}
	type blk struct{ id, path string }
	var blocks []blk
	files := map[string][]string{}
	for fi, p := range paths {
		files[p] = []string{"# File " + p}
		n := 2 + r.IntN(6)
		for i := 0; i < n; i++ {
			if p != "topics/core.md" && r.IntN(3) == 0 {
				files[p] = append(files[p], fmt.Sprintf("## Section %d", r.IntN(3)))
			}
			id := topic.NewBlockID(fmt.Sprintf("%d/%d/%d", seed, fi, i))
			label := topic.NewFootnoteLabel(id)
			text := pool[r.IntN(len(pool))]
			if len(blocks) > 0 && r.IntN(3) == 0 {
				to := blocks[r.IntN(len(blocks))]
				target := topic.RelPath(p, to.path)
				if to.path == p {
					target = ""
				}
				if r.IntN(3) == 0 {
					target = "stale.md" // a link whose block lives elsewhere
				}
				text += fmt.Sprintf(" See [this](%s#^%s).", target, to.id)
			}
			var cites []topic.Citation
			for j := 0; j <= r.IntN(2); j++ {
				sid := fmt.Sprintf("openprogram/sess-r/m%d", 1+r.IntN(12))
				dupe := false
				for _, c := range cites {
					dupe = dupe || c.SourceID == sid
				}
				if !dupe {
					cites = append(cites, topic.Citation{SourceID: sid, Path: topic.RelPath(p, arch), Anchor: archive.AnchorFor(sid)})
				}
			}
			files[p] = append(files[p], fmt.Sprintf("%s[^%s] ^%s", text, label, id),
				topic.FormatDefinition(topic.Definition{Label: label, Date: fmt.Sprintf("2024-03-%02d", 1+r.IntN(3)), Sources: cites}))
			blocks = append(blocks, blk{id, p})
		}
	}
	for p, els := range files {
		full := filepath.Join(mem, filepath.FromSlash(p))
		if err := os.MkdirAll(path.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(strings.Join(els, "\n\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return state
}

func TestSleep_RandomWorkspaces(t *testing.T) {
	merged, created := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			ctx := context.Background()
			state := sleepRandomWorkspace(t, seed)
			e, err := engine.Open(ctx, engine.Options{StateDir: state, Tier: trust.Owner, Interactive: true})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			s := sleepSnapshot(t, e)
			citedBefore := s.CitedSources()
			idsBefore := 0
			for _, p := range s.TopicPaths() {
				idsBefore += len(fileOf(s, p).Blocks())
			}
			rep, err := Sleep(ctx, e, SleepOptions{SplitTokens: 150})
			if err != nil {
				t.Fatalf("sleep: %v", err)
			}
			v, err := e.Verify(ctx)
			if err != nil || !v.OK {
				t.Fatalf("verify after the pass: %v %v", v.Violations, err)
			}
			idsAfter := map[string]bool{}
			after := sleepSnapshot(t, e)
			for _, p := range after.TopicPaths() {
				for _, b := range fileOf(after, p).Blocks() {
					idsAfter[b.BlockID] = true
				}
				if _, _, existed := s.Topic(p); !existed {
					created++
				}
			}
			for _, p := range s.TopicPaths() {
				for _, b := range fileOf(s, p).Blocks() {
					if !idsAfter[b.BlockID] {
						merged++
					}
				}
			}
			s = after
			for id := range citedBefore {
				if !s.CitedSources()[id] {
					t.Errorf("citation %s lost", id)
				}
			}
			if _, err := Sleep(ctx, e, SleepOptions{SplitTokens: 150}); err != nil {
				t.Fatalf("second sleep: %v", err)
			}
			if v, _ := e.Verify(ctx); !v.OK {
				t.Fatalf("verify after the second pass: %v", v.Violations)
			}
			t.Logf("%d blocks, pass changed %d file(s)", idsBefore, len(rep.Changed))
		})
	}
	// The generator must exercise the merge and split phases, or the
	// properties above prove little.
	if merged == 0 || created == 0 {
		t.Errorf("over all seeds: %d blocks merged away, %d files created; want both > 0", merged, created)
	}
	t.Logf("over all seeds: %d blocks merged away, %d files created", merged, created)
}
