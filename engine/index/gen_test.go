package index

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// The generator is seeded: the same (n, seed) always gives the same docs, so
// benchmarks and ranking tests are repeatable.

// genHan is a pool of common characters for the Chinese part of the corpus.
const genHan = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理"

func genRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5c41b7)) }

// genVocab returns latin pseudo-words and Han two-character words; it is
// the same for every corpus, so queries and docs share it.
func genVocab() (latin, han []string) {
	r := genRand(1)
	syll := []string{"ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "da", "gu", "shi", "zen", "tor", "bel", "qua", "nix", "ram"}
	seen := map[string]bool{}
	for len(latin) < 3000 {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			latin = append(latin, w)
		}
	}
	chars := []rune(genHan)
	for len(han) < 800 {
		w := string([]rune{chars[r.IntN(len(chars))], chars[r.IntN(len(chars))]})
		if !seen[w] {
			seen[w] = true
			han = append(han, w)
		}
	}
	return latin, han
}

// genText draws n words with a Zipf skew; about a quarter of the texts are
// mostly Chinese.
func genText(r *rand.Rand, zl, zh *rand.Zipf, latin, han []string, n int) string {
	chinese := r.IntN(4) == 0
	var b strings.Builder
	for i := range n {
		if chinese && r.IntN(5) != 0 {
			b.WriteString(han[zh.Uint64()])
			continue
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(latin[zl.Uint64()])
	}
	return b.String()
}

// genDocs makes n documents: a fifth topic blocks, the rest source records
// from 50 speakers (some speakerless) over two years; one in twenty hidden.
func genDocs(n int, seed uint64) []Doc {
	r := genRand(seed)
	latin, han := genVocab()
	zl := rand.NewZipf(r, 1.1, 4, uint64(len(latin)-1))
	zh := rand.NewZipf(r, 1.1, 4, uint64(len(han)-1))
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	docs := make([]Doc, n)
	for i := range n {
		d := Doc{Text: genText(r, zl, zh, latin, han, 5+r.IntN(55)), Visible: r.IntN(20) != 0}
		if r.IntN(5) == 0 {
			ref := fmt.Sprintf("%08x", r.Uint32())
			d.Kind, d.Ref, d.Anchor = KindTopic, ref, "^"+ref
			d.Path = fmt.Sprintf("topics/area%d/topic%d.md", r.IntN(10), r.IntN(100))
			d.ID = "topic:" + ref + fmt.Sprint(i)
			if r.IntN(3) != 0 {
				d.Time = start.AddDate(0, 0, r.IntN(730))
			}
		} else {
			provider, thread := fmt.Sprintf("prov%d", r.IntN(5)), fmt.Sprintf("thread%d", r.IntN(200))
			d.Kind = KindSource
			d.Ref = fmt.Sprintf("%s/%s/msg%d", provider, thread, i)
			d.Path = "sources/" + provider + "/_v2/" + thread + ".md"
			d.Anchor = fmt.Sprintf("source-%08x", r.Uint32())
			d.ID = "source:" + d.Path + "#" + d.Anchor + fmt.Sprint(i)
			d.Time = start.Add(time.Duration(r.Int64N(int64(730 * 24 * time.Hour)))).Truncate(time.Second)
			if u := r.IntN(60); u < 50 {
				d.SpeakerID = fmt.Sprintf("u%d", u)
				d.SpeakerDisplay = fmt.Sprintf("User %d", u)
				d.SpeakerLabel = d.SpeakerDisplay + " (" + d.SpeakerID + ")"
				d.SpeakerTrusted = r.IntN(10) != 0
			}
		}
		docs[i] = d
	}
	return docs
}

// genQueries makes n queries of one to three words from the vocabulary
// genDocs uses, mostly from its frequent head.
func genQueries(n int, seed uint64) []string {
	r := genRand(seed)
	latin, han := genVocab()
	out := make([]string, n)
	for i := range out {
		words := make([]string, 1+r.IntN(3))
		for j := range words {
			if r.IntN(4) == 0 {
				words[j] = han[r.IntN(60)]
			} else {
				words[j] = latin[r.IntN(300)]
			}
		}
		out[i] = strings.Join(words, " ")
	}
	return out
}
