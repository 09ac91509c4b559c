package distill

import "strings"

// dedupe folds a fact into an earlier one about the same subject that it
// restates: the earlier text stays and cites both turns.
func dedupe(facts []Fact) []Fact {
	var out []Fact
	stems := make([]map[string]bool, 0, len(facts))
	for _, f := range facts {
		fs := contentStems(f.Text, nil, f.Subject)
		merged := false
		for i := range out {
			if out[i].Subject == f.Subject && out[i].Kind != KindOutcome && f.Kind != KindOutcome && restates(stems[i], fs) {
				if strings.Contains(f.Text, correctionJoin) && containsAll(f.Cites, out[i].Cites) && len(f.Cites) > len(out[i].Cites) {
					// Built on the earlier turn and more ("…€180", then
					// "* €210"): the later text says it all (bursts.go).
					out[i].Text, stems[i], out[i].Cites = f.Text, fs, append([]string(nil), f.Cites...)
				}
				out[i].Cites = appendNew(out[i].Cites, f.Cites...)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, f)
			stems = append(stems, fs)
		}
	}
	return out
}

// contentStems are the stems of text's content words, names aside.
func contentStems(text string, cache map[string]string, names ...string) map[string]bool {
	a := analyzer()
	skip := map[string]bool{"said": true}
	for _, n := range names {
		for _, w := range a.words(n, cache) {
			skip[w.stem] = true
		}
	}
	out := map[string]bool{}
	for _, w := range a.words(text, cache) {
		if !skip[w.stem] {
			out[w.stem] = true
		}
	}
	return out
}

// restates reports whether two texts say the same thing: most of the
// shorter one's content words are in the longer one, or they share half
// of their words.
func restates(a, b map[string]bool) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	common := 0
	for w := range a {
		if b[w] {
			common++
		}
	}
	small := min(len(a), len(b))
	union := len(a) + len(b) - common
	return small >= 3 && float64(common) >= 0.8*float64(small) || float64(common) >= 0.5*float64(union)
}

// appendNew appends the refs not in xs already.
func appendNew(xs []string, refs ...string) []string {
	for _, r := range refs {
		found := false
		for _, x := range xs {
			if x == r {
				found = true
				break
			}
		}
		if !found {
			xs = append(xs, r)
		}
	}
	return xs
}
