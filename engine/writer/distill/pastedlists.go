package distill

import "strings"

// A list pasted into a chat (a rota, a work-duty plan, a costs list, a
// club's rules) is one message: kept line by line, each line repeats
// "X said:" around a few words, "09.05." alone among them, and a rota of
// nine lines becomes nine blocks. The lines a turn gave as quotes are one
// block instead, its lines parted by "; ", citing the turn.

// minListLines is how many quoted lines of one turn make a list.
const minListLines = 6

// joinListLines makes the quoted facts turn i gave from its separate lines
// one fact, when there are minListLines or more, each quotes the same
// speaker and cites only the turn. The joined fact is checked as any
// other (never invent); if it fails, the lines stay as they were.
func (d *distiller) joinListLines(i int, facts []Fact) []Fact {
	t := d.s.Turns[i]
	if len(facts) < 2 {
		return facts
	}
	list := len(facts) >= minListLines && strings.Count(strings.TrimSpace(t.Content), "\n") >= minListLines-1
	if !list && !d.germanSession() {
		return facts
	}
	prefix := ""
	var quotes []string
	for _, f := range facts {
		p, q, ok := quoted(f.Text)
		if !ok || len(f.Cites) != 1 || f.Cites[0] != t.Ref || prefix != "" && p != prefix {
			return facts
		}
		if hasSpaceless(q) {
			return facts // Japanese and Chinese lines end in their own stops: a list of sentences
		}
		prefix = p
		quotes = append(quotes, strings.TrimRight(q, ";"))
	}
	joined := facts[0]
	var b strings.Builder
	for k, q := range quotes {
		if k > 0 {
			// a line that ends in its own stop needs no other
			if strings.ContainsAny(quotes[k-1][len(quotes[k-1])-1:], ".:!?") {
				b.WriteString(" ")
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(q)
	}
	joined.Text = prefix + `"` + b.String() + `"`
	joined.Key = ""
	for _, f := range facts {
		if joined.Date == "" {
			joined.Date = f.Date
		}
	}
	if len(d.unsupported(joined)) > 0 {
		return facts
	}
	return []Fact{joined}
}

// quoted parts a fact `X said: "…"` into its `X said: ` and the words
// quoted; a fact of two quotes ("…", then: "…") is not one.
func quoted(text string) (prefix, quote string, ok bool) {
	i := strings.Index(text, `said: "`)
	if i < 0 || !strings.HasSuffix(text, `"`) {
		return "", "", false
	}
	prefix = text[:i+len(`said: `)]
	quote = text[i+len(`said: "`) : len(text)-1]
	if strings.Contains(quote, `"`) {
		return "", "", false
	}
	return prefix, quote, true
}
