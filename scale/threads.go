package scale

// Threads and their source records: the first phase of Workspace. Each
// thread's archive is written as soon as its records are drawn, so memory
// holds one archive at a time plus the compact table of citable records
// that the topics phase draws from.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"scriptorium/workspace/archive"
)

type genSpeaker struct{ ID, Display string }

type genThread struct {
	Provider, Name string
	Kind           int // threadGroup, threadChannel, threadSession
	Members        []genSpeaker
}

const (
	threadGroup   = iota // trusted speaker ids
	threadChannel        // display-only speakers (bridged channels)
	threadSession        // web/CLI sessions: speakerless user and assistant
)

func (t *genThread) archivePath() string {
	return "sources/" + t.Provider + "/_v2/" + t.Name + ".md"
}

// speakerPool makes a provider's users with ids in that provider's style:
// some need percent-encoding (#, :, @, non-ASCII).
func speakerPool(r *rand.Rand, provider string, n int) []genSpeaker {
	out := make([]genSpeaker, n)
	for i := range out {
		disp := pick(r, genPeople) + " " + string(rune('A'+r.IntN(26))) + "."
		if r.IntN(4) == 0 {
			disp = pick(r, genPeopleZH)
		}
		var id string
		switch provider {
		case "telegram":
			id = strconv.Itoa(100000000 + r.IntN(900000000))
		case "discord":
			id = fmt.Sprintf("%s#%04d", strings.ToLower(strings.Fields(disp)[0]), r.IntN(10000))
		case "slack":
			id = fmt.Sprintf("U0%08X", r.Uint32())
		case "wechat":
			id = "wxid_" + strconv.Itoa(r.IntN(1_000_000))
			if r.IntN(3) == 0 {
				id = "wxid_" + pick(r, genPeopleZH)
			}
		default:
			id = fmt.Sprintf("%s@%s", strings.ToLower(strings.Fields(disp)[0]), provider)
		}
		out[i] = genSpeaker{ID: id, Display: disp}
	}
	return out
}

var genProviders = []struct {
	name   string
	weight int
}{
	{"telegram", 30}, {"discord", 15}, {"slack", 20}, {"wechat", 15},
	{"openprogram", 15}, {"web", 5},
}

var genStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

const genSpan = 2 * 365 * 24 * time.Hour

// citeRef is one archived record as the topics phase needs it, without the
// strings: a million of these must stay small. The source-id and archive
// path are rebuilt from the thread; the record's opening words (which a
// block citing it quotes) live in fixed-size chunks, so the table never
// copies itself to grow.
type citeRef struct {
	thread, rec int32
	unix        int64
	pending     bool
	chunk       uint16
	n           uint16 // the words' length in bytes
	off         uint32 // their offset in the chunk
}

type citeTable struct {
	refs   []citeRef
	chunks [][]byte
}

const citeChunk = 4 << 20

func (c *citeTable) add(ref citeRef, words string) {
	words = words[:min(len(words), 1<<16-1)]
	if len(c.chunks) == 0 || len(c.chunks[len(c.chunks)-1])+len(words) > citeChunk {
		c.chunks = append(c.chunks, make([]byte, 0, citeChunk))
	}
	last := len(c.chunks) - 1
	ref.chunk, ref.off, ref.n = uint16(last), uint32(len(c.chunks[last])), uint16(len(words))
	c.chunks[last] = append(c.chunks[last], words...)
	c.refs = append(c.refs, ref)
}

func (c *citeTable) words(r citeRef) string {
	return string(c.chunks[r.chunk][r.off : r.off+uint32(r.n)])
}

// cite is a citeRef with its strings materialised.
type cite struct {
	id, path string
	t        time.Time
	pending  bool
	words    string
}

func (g *generator) cite(i int) cite {
	c := g.cites.refs[i]
	t := g.threads[c.thread]
	return cite{
		id:      t.sourceID(int(c.rec)),
		path:    t.archivePath(),
		t:       time.Unix(c.unix, 0).UTC(),
		pending: c.pending,
		words:   g.cites.words(c),
	}
}

func (t *genThread) sourceID(i int) string {
	return fmt.Sprintf("%s/%s/m%06d", t.Provider, t.Name, i)
}

// makeThreads draws the speaker pools, the threads and how many records
// each thread holds.
func (g *generator) makeThreads(n int) {
	r := g.r
	pools := map[string][]genSpeaker{}
	for _, p := range genProviders {
		pools[p.name] = speakerPool(r, p.name, 60)
	}
	totalWeight := 0
	for _, p := range genProviders {
		totalWeight += p.weight
	}
	nThreads := max(20, n/50)
	g.threads = make([]*genThread, nThreads)
	for i := range g.threads {
		w := r.IntN(totalWeight)
		prov := genProviders[0].name
		for _, p := range genProviders {
			if w < p.weight {
				prov = p.name
				break
			}
			w -= p.weight
		}
		t := &genThread{Provider: prov}
		switch prov {
		case "openprogram", "web":
			t.Kind = threadSession
			t.Name = fmt.Sprintf("sess-%08x", r.Uint32())
		default:
			t.Kind = threadGroup
			if prov != "wechat" && r.IntN(4) == 0 {
				t.Kind = threadChannel
			}
			t.Name = fmt.Sprintf("%s-%d", pick(r, []string{"family", "team", "friends", "ops", "trip", "club", "general", "random"}), i)
			pool := pools[prov]
			k := 2 + r.IntN(10)
			for _, j := range r.Perm(len(pool))[:k] {
				t.Members = append(t.Members, pool[j])
			}
		}
		g.threads[i] = t
	}

	// Records go to threads with a Zipf skew: a few long-running chats hold
	// most of the history, as in real use.
	zt := rand.NewZipf(r, 1.1, 8, uint64(nThreads-1))
	g.counts = make([]int, nThreads)
	for range n {
		g.counts[zt.Uint64()]++
	}
	g.cites.refs = make([]citeRef, 0, n)
}

// writeArchives draws every thread's records and writes its v2 archive.
func (g *generator) writeArchives() error {
	r, tg, m := g.r, g.tg, g.m
	for ti, t := range g.threads {
		c := g.counts[ti]
		if c == 0 {
			continue
		}
		// Each thread lives in its own window of the two years.
		from := genStart.Add(time.Duration(r.Int64N(int64(genSpan / 2))))
		span := time.Duration(r.Int64N(int64(genStart.Add(genSpan).Sub(from)))) + time.Hour
		times := make([]time.Time, c)
		for i := range times {
			times[i] = from.Add(time.Duration(r.Int64N(int64(span)))).Truncate(time.Second)
		}
		slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
		recs := make([]archive.Record, 0, c)
		for i := range c {
			rec := archive.Record{SourceID: t.sourceID(i), Time: times[i]}
			switch t.Kind {
			case threadSession:
				if i%2 == 0 {
					rec.Role = "user"
					rec.Content = tg.english("I")
				} else {
					rec.Role = "assistant"
					rec.Content = tg.assistant()
				}
			default:
				sp := pick(r, t.Members)
				if t.Kind == threadGroup {
					rec.SpeakerID = sp.ID
				}
				rec.SpeakerDisplay = sp.Display
				if r.IntN(5) == 0 || (t.Provider == "wechat" && r.IntN(3) != 0) {
					rec.Content = tg.chinese()
				} else {
					rec.Content = tg.english(sp.Display)
				}
				if t.Kind == threadGroup && r.IntN(100) == 0 {
					// An unpaired sender in a group chat: archived pending.
					rec.Pending = true
					rec.SpeakerID = fmt.Sprintf("stranger-%d", r.IntN(1000))
					rec.SpeakerDisplay = "Stranger"
					m.Pending++
				}
			}
			if r.IntN(200) == 0 {
				rec.Content += "\r\ntrailing line with CRLF  "
			}
			recs = append(recs, rec)
			g.cites.add(citeRef{thread: int32(ti), rec: int32(i), unix: rec.Time.Unix(), pending: rec.Pending},
				firstWords(rec.Content, 12))
		}
		data, _, err := archive.Append(nil, recs)
		if err != nil {
			return fmt.Errorf("archive %s: %w", t.archivePath(), err)
		}
		if err := writeFile(g.memDir, t.archivePath(), data); err != nil {
			return err
		}
		m.Threads++
		m.Bytes += len(data)
	}
	return nil
}

// pickFilter sets the manifest's filter: the busiest trusted speaker of
// the busiest group thread, over one year.
func (g *generator) pickFilter() {
	best, bestN := -1, 0
	for ti, t := range g.threads {
		if t.Kind == threadGroup && g.counts[ti] > bestN {
			best, bestN = ti, g.counts[ti]
		}
	}
	if best >= 0 {
		t := g.threads[best]
		g.m.Filter = Filter{Speaker: t.Members[0].ID, Path: "sources/" + t.Provider,
			Since: "2024-07-01", Until: "2025-06-30"}
	}
}
