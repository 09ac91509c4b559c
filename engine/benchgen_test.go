package engine_test

// The benchmark workspace generator. It writes a realistic memory workspace
// of N source records straight through the format packages (archive.Append,
// topic.FormatDefinition), which is far faster than going through the writer,
// and caches it per N under os.TempDir() keyed by benchGenVersion. Only
// Benchmark functions call it: `go test ./...` never generates anything.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// benchGenVersion keys the on-disk cache: bump it with any change to what
// the generator writes, so stale caches are never reused.
const benchGenVersion = 1

// benchSeed makes every generated workspace the same from run to run.
const benchSeed = 0x5c0a7e

// benchManifest describes a generated workspace: what the benchmarks need
// to know about it without re-reading it.
type benchManifest struct {
	Version    int `json:"version"`
	Records    int `json:"records"`
	Pending    int `json:"pending"`
	Threads    int `json:"threads"`
	TopicFiles int `json:"topic_files"`
	Blocks     int `json:"blocks"`
	Bytes      int `json:"bytes"`
	// Queries are search texts drawn from the generator's vocabulary.
	Queries []string `json:"queries"`
	// Filter is a speaker+path+date filter that keeps a realistic slice of
	// the corpus (one busy speaker of one provider over a year).
	Filter benchFilter `json:"filter"`
	// EditTopics are small topic files the install benchmark appends to.
	EditTopics []string `json:"edit_topics"`
	// Cites are trusted sources a new block may cite.
	Cites []benchCite `json:"cites"`
}

type benchFilter struct {
	Speaker string `json:"speaker"`
	Path    string `json:"path"`
	Since   string `json:"since"`
	Until   string `json:"until"`
}

type benchCite struct {
	SourceID string `json:"source_id"`
	Archive  string `json:"archive"` // workspace path of the archive
	Date     string `json:"date"`
}

// ---------------------------------------------------------------------------
// Vocabulary. A conversational head of real words (Zipf-drawn), named
// entities the templates use, a long tail of pseudo-words (identifiers,
// jargon, typos), and Chinese phrases.

var (
	genHead = strings.Fields(`the I you to and a it is that of in we for on this
		be have with my do not are just so can but at was will if what me they
		get know think like about up out there all one go now your time he how
		she did it's it's good yes no ok sure then need want when today tomorrow
		back some them work would could should really also still right new more
		see make take check let me us our from got been going any maybe thanks
		well here week day next last night morning after before around over same
		again already later soon call send look find try keep change move start
		stop done fine great nice busy sorry problem issue fix update plan idea
		question answer note list file link photo price cost money ticket order
		meeting lunch dinner coffee train flight car home office phone email
		message group weekend monday tuesday wednesday thursday friday saturday
		sunday april may june july august september october november december
		january february march book booked booking confirm confirmed cancel
		schedule scheduled remind reminder deadline release deploy deployed build
		server database backup logs error alert disk memory cpu network api bug
		test tests review merge branch version config cache queue latency outage
		restart rollback migration script dashboard metrics budget invoice
		receipt payment rent bill doctor dentist appointment medicine pharmacy
		gym run running training race pace knee shoes groceries milk bread eggs
		rice vegetables chicken fish recipe cook cooking birthday party gift cake
		kids school homework teacher vacation trip hotel room beach mountain
		museum weather rain snow sunny cold warm late early quick slow long short`)

	genPeople = []string{"Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace",
		"Heidi", "Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy", "Rupert",
		"Sybil", "Trent", "Uma", "Victor", "Walter", "Xena", "Yusuf", "Zoe",
		"Priya", "Tom", "Mei", "Kenji", "Lena", "Omar", "Sofia", "Diego", "Anya",
		"Craig", "Hana", "Ravi", "Nora", "Felix", "Ines", "Jonas", "Kira"}
	genPeopleZH = []string{"张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊", "赵敏",
		"黄强", "周杰", "吴丽", "徐明", "孙悦", "马超", "朱琳", "胡斌", "郭婷"}
	genProjects = []string{"budget tracker", "homelab", "garden irrigation",
		"photo archive", "kitchen remodel", "tax return", "wedding plans",
		"half marathon", "mandarin lessons", "billing service", "search index",
		"mobile app", "data pipeline", "onboarding docs", "release train",
		"postgres upgrade", "kubernetes cluster", "blog redesign", "podcast",
		"book club", "car repair", "moving house", "school fundraiser",
		"cat adoption", "solar panels", "invoice export", "auth service"}
	genPlaces = []string{"Lisbon", "Kyoto", "Osaka", "Berlin", "Toronto",
		"Seattle", "Austin", "Porto", "Shanghai", "Chengdu", "Hangzhou", "Denver",
		"the office", "the cafe", "the gym", "the park", "the airport"}
	genFoods = []string{"ramen", "dumplings", "tacos", "pho", "sushi", "pizza",
		"curry", "noodles", "salad", "hotpot", "bagels", "pancakes"}
	genTech = []string{"postgres", "redis", "nginx", "kafka", "grafana",
		"prometheus", "terraform", "docker", "systemd", "sqlite", "bleve",
		"golang", "python", "rust", "react", "webpack", "cron", "s3"}

	genZH = strings.Fields(`我们 明天 今天 下午 晚上 早上 开会 记得 带 吃饭 火车票
		飞机 酒店 预订 生日 礼物 医院 体检 奶奶 妈妈 爸爸 孩子 学校 作业 老师
		周末 春节 回家 饺子 红包 项目 上线 服务器 数据库 备份 报错 修复 测试
		发布 预算 发票 付款 房租 搬家 装修 厨房 猫粮 兽医 跑步 比赛 训练 膝盖
		天气 下雨 太冷 已经 还没 需要 可以 没问题 谢谢 好的 知道 看看 一下 时间
		地址 电话 照片 链接 文件 价格 便宜 太贵 取消 确认 改到 提前 推迟 完成`)
	genProjectsZH = []string{"记账软件", "家庭服务器", "花园浇水", "相册整理",
		"厨房装修", "报税", "婚礼", "半程马拉松", "中文课", "计费系统", "搜索索引"}
	genPlacesZH = []string{"上海", "成都", "杭州", "北京", "京都", "大阪",
		"公司", "咖啡馆", "健身房", "公园", "机场", "人民医院"}
)

// genTail is a long tail of pseudo-words: ticket numbers, hosts, jargon.
func genTail(r *rand.Rand, n int) []string {
	syll := []string{"ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "da",
		"gu", "shi", "zen", "tor", "bel", "qua", "nix", "ram", "fen", "lux"}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var w string
		switch r.IntN(6) {
		case 0:
			w = fmt.Sprintf("ticket-%d", 1000+r.IntN(9000))
		case 1:
			w = fmt.Sprintf("v%d.%d.%d", r.IntN(4), r.IntN(20), r.IntN(30))
		default:
			var b strings.Builder
			for range 2 + r.IntN(3) {
				b.WriteString(syll[r.IntN(len(syll))])
			}
			w = b.String()
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// textGen draws message and block texts.
type textGen struct {
	r          *rand.Rand
	head, tail []string
	zh         []string
	zHead      *rand.Zipf
	zTail      *rand.Zipf
	zZH        *rand.Zipf
}

func newTextGen(r *rand.Rand) *textGen {
	g := &textGen{r: r, head: genHead, tail: genTail(r, 6000), zh: genZH}
	g.zHead = rand.NewZipf(r, 1.2, 3, uint64(len(g.head)-1))
	g.zTail = rand.NewZipf(r, 1.05, 10, uint64(len(g.tail)-1))
	g.zZH = rand.NewZipf(r, 1.1, 3, uint64(len(g.zh)-1))
	return g
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// filler appends n words of everyday chatter, one in eight from the tail.
func (g *textGen) filler(b *strings.Builder, n int) {
	for range n {
		b.WriteByte(' ')
		if g.r.IntN(8) == 0 {
			b.WriteString(g.tail[g.zTail.Uint64()])
		} else {
			b.WriteString(g.head[g.zHead.Uint64()])
		}
	}
}

func (g *textGen) fillerZH(b *strings.Builder, n int) {
	for range n {
		b.WriteString(g.zh[g.zZH.Uint64()])
		if g.r.IntN(5) == 0 {
			b.WriteString("，")
		}
	}
}

var (
	weekdays  = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	genMonths = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// english returns one English chat message.
func (g *textGen) english(who string) string {
	r := g.r
	var b strings.Builder
	switch r.IntN(10) {
	case 0:
		fmt.Fprintf(&b, "%s is moving the %s deploy to %s", pick(r, genPeople), pick(r, genProjects), pick(r, weekdays))
	case 1:
		fmt.Fprintf(&b, "did anyone check the %s logs for the %s? the %s keeps failing", pick(r, genTech), pick(r, genProjects), pick(r, genTech))
	case 2:
		fmt.Fprintf(&b, "I'll grab %s on the way to %s", pick(r, genFoods), pick(r, genPlaces))
	case 3:
		fmt.Fprintf(&b, "reminder: %s's birthday is on %s %d", pick(r, genPeople), pick(r, genMonths), 1+r.IntN(28))
	case 4:
		fmt.Fprintf(&b, "the %s budget is %d dollars, %s approved it", pick(r, genProjects), 50*(1+r.IntN(200)), pick(r, genPeople))
	case 5:
		fmt.Fprintf(&b, "can we move the meeting to %d:%02d? %s has a conflict with the %s", 8+r.IntN(10), 15*r.IntN(4), pick(r, genPeople), pick(r, genProjects))
	case 6:
		fmt.Fprintf(&b, "%s prefers %s over %s, book the place in %s", pick(r, genPeople), pick(r, genFoods), pick(r, genFoods), pick(r, genPlaces))
	case 7:
		fmt.Fprintf(&b, "flight to %s lands at %d:%02d, %s will pick us up", pick(r, genPlaces), r.IntN(24), 5*r.IntN(12), pick(r, genPeople))
	case 8:
		fmt.Fprintf(&b, "%s upgraded %s to %s and the %s alert stopped", who, pick(r, genTech), g.tail[g.zTail.Uint64()], pick(r, genTech))
	default:
		b.WriteString(g.head[g.zHead.Uint64()])
	}
	g.filler(&b, 3+r.IntN(25))
	return b.String()
}

// chinese returns one Chinese chat message.
func (g *textGen) chinese() string {
	r := g.r
	var b strings.Builder
	switch r.IntN(5) {
	case 0:
		fmt.Fprintf(&b, "%s说%s要在%d月%d号之前完成，", pick(r, genPeopleZH), pick(r, genProjectsZH), 1+r.IntN(12), 1+r.IntN(28))
	case 1:
		fmt.Fprintf(&b, "明天下午%d点在%s开会，记得带电脑。", 1+r.IntN(6), pick(r, genPlacesZH))
	case 2:
		fmt.Fprintf(&b, "%s的%s又报错了，", pick(r, genPeopleZH), pick(r, genProjectsZH))
	case 3:
		fmt.Fprintf(&b, "周末去%s吃火锅吧，", pick(r, genPlacesZH))
	}
	g.fillerZH(&b, 4+r.IntN(14))
	if r.IntN(4) == 0 {
		// Mixed-script messages are common in real chats.
		fmt.Fprintf(&b, " %s %s", pick(r, genTech), g.tail[g.zTail.Uint64()])
	}
	return b.String()
}

// assistant returns a longer assistant answer, sometimes over several lines.
func (g *textGen) assistant() string {
	r := g.r
	var b strings.Builder
	fmt.Fprintf(&b, "Here is what I found about the %s:", pick(r, genProjects))
	g.filler(&b, 20+r.IntN(60))
	if r.IntN(3) == 0 {
		b.WriteString("\n\n- ")
		g.filler(&b, 8)
		b.WriteString("\n- ")
		g.filler(&b, 8)
	}
	return b.String()
}

// ---------------------------------------------------------------------------
// Threads and records.

type genSpeaker struct{ ID, Display string }

type genThread struct {
	Provider, Name string
	Kind           int // threadGroup, threadChannel, threadSession
	Members        []genSpeaker
	recs           []archive.Record
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

// generateWorkspace writes a workspace of n source records under memDir
// (which must be empty or missing) and returns its manifest.
func generateWorkspace(memDir string, n int) (*benchManifest, error) {
	r := rand.New(rand.NewPCG(benchSeed, uint64(n)))
	tg := newTextGen(r)
	m := &benchManifest{Version: benchGenVersion, Records: n}

	pools := map[string][]genSpeaker{}
	for _, p := range genProviders {
		pools[p.name] = speakerPool(r, p.name, 60)
	}
	totalWeight := 0
	for _, p := range genProviders {
		totalWeight += p.weight
	}
	nThreads := max(20, n/50)
	threads := make([]*genThread, nThreads)
	for i := range threads {
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
		threads[i] = t
	}

	// Records go to threads with a Zipf skew: a few long-running chats hold
	// most of the history, as in real use.
	zt := rand.NewZipf(r, 1.1, 8, uint64(nThreads-1))
	counts := make([]int, nThreads)
	for range n {
		counts[zt.Uint64()]++
	}
	type cite struct {
		id, path string
		t        time.Time
		pending  bool
		words    string
	}
	var cites []cite
	for ti, t := range threads {
		c := counts[ti]
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
		for i := range c {
			rec := archive.Record{SourceID: fmt.Sprintf("%s/%s/m%06d", t.Provider, t.Name, i), Time: times[i]}
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
			t.recs = append(t.recs, rec)
			cites = append(cites, cite{rec.SourceID, t.archivePath(), rec.Time, rec.Pending, firstWords(rec.Content, 12)})
		}
		data, _, err := archive.Append(nil, t.recs)
		if err != nil {
			return nil, fmt.Errorf("archive %s: %w", t.archivePath(), err)
		}
		if err := writeGenFile(memDir, t.archivePath(), data); err != nil {
			return nil, err
		}
		m.Threads++
		m.Bytes += len(data)
		t.recs = nil // the text is on disk now
	}

	// The filter: the busiest trusted speaker of the busiest group thread,
	// over one year.
	best, bestN := -1, 0
	for ti, t := range threads {
		if t.Kind == threadGroup && counts[ti] > bestN {
			best, bestN = ti, counts[ti]
		}
	}
	if best >= 0 {
		t := threads[best]
		m.Filter = benchFilter{Speaker: t.Members[0].ID, Path: "sources/" + t.Provider,
			Since: "2024-07-01", Until: "2025-06-30"}
	}

	// Topics: one block per ten records, twenty blocks a file, plus a
	// topics/core.md longer than the 2000-token budget.
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
			c := cites[r.IntN(len(cites))]
			if c.pending && r.IntN(4) != 0 {
				continue
			}
			cs = append(cs, c)
		}
		if len(cs) == 0 {
			cs = append(cs, cites[0])
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
				return nil, err
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
				return nil, err
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
		if err := writeGenFile(memDir, f, []byte(data)); err != nil {
			return nil, err
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
		c := cites[r.IntN(len(cites))]
		if !c.pending {
			m.Cites = append(m.Cites, benchCite{SourceID: c.id, Archive: c.path, Date: c.t.Format(time.DateOnly)})
		}
	}
	m.Queries = genBenchQueries(rand.New(rand.NewPCG(benchSeed, 7)), tg)
	return m, nil
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

func writeGenFile(memDir, rel string, data []byte) error {
	p := filepath.Join(memDir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	return nil
}

// ---------------------------------------------------------------------------
// The cache.

// benchCacheDir is where the workspace of n records is cached.
func benchCacheDir(n int) string {
	return filepath.Join(os.TempDir(), "scriptorium-bench", fmt.Sprintf("gen%d-n%d", benchGenVersion, n))
}

// benchPristine returns the cached state dir of n records (generating it
// the first time) and its manifest. The state dir holds memory/ only: no
// .scriptorium, no index.
func benchPristine(b *testing.B, n int) (string, *benchManifest) {
	b.Helper()
	dir := benchCacheDir(n)
	if m, err := readManifest(dir); err == nil {
		return filepath.Join(dir, "state"), m
	}
	start := time.Now()
	tmp := fmt.Sprintf("%s.tmp-%d", dir, os.Getpid())
	_ = os.RemoveAll(tmp)
	m, err := generateWorkspace(filepath.Join(tmp, "state", "memory"), n)
	if err != nil {
		_ = os.RemoveAll(tmp)
		b.Fatalf("generate %d records: %v", n, err)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "manifest.json"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	_ = os.RemoveAll(dir) // a cache without a readable manifest is garbage
	if err := os.Rename(tmp, dir); err != nil {
		b.Fatalf("install cache: %v", err)
	}
	b.Logf("generated %d records (%d threads, %d topic files, %d blocks, %.1f MiB) in %s at %s",
		m.Records, m.Threads, m.TopicFiles, m.Blocks, float64(m.Bytes)/(1<<20), time.Since(start).Round(time.Millisecond), dir)
	return filepath.Join(dir, "state"), m
}

func readManifest(dir string) (*benchManifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	m := &benchManifest{}
	if err := json.Unmarshal(data, m); err != nil {
		return nil, err
	}
	if m.Version != benchGenVersion {
		return nil, errors.New("stale cache")
	}
	return m, nil
}

// copyTree copies the regular files and directories under src to dst,
// keeping modification times: the engine's index fingerprint is made of
// sizes and mtimes, so a copied warm workspace stays fresh.
func copyTree(src, dst string) error {
	type dirTime struct {
		path string
		mod  time.Time
	}
	var dirs []dirTime
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			dirs = append(dirs, dirTime{target, info.ModTime()})
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			if err := copyFile(p, target, info.Mode().Perm()); err != nil {
				return err
			}
			return os.Chtimes(target, info.ModTime(), info.ModTime())
		}
		return nil // lock files are regular; sockets and the like do not occur
	})
	if err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Chtimes(dirs[i].path, dirs[i].mod, dirs[i].mod)
	}
	return nil
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
