package writereval

import (
	"fmt"
	"strings"

	"scriptorium/engine/enginetest"
)

// Subset is the part of set made of the conversations whose gold file
// names are listed ("06-code-ledgerline-flaky.txt"), in the set's order.
// A name the set does not hold is an error: a renamed conversation must
// not silently shrink a measurement.
func Subset(set enginetest.DistillSet, files ...string) (enginetest.DistillSet, error) {
	want := map[string]bool{}
	for _, f := range files {
		want[f] = true
	}
	var out enginetest.DistillSet
	keep := map[string]bool{}
	for _, c := range set.Convs {
		if want[c.File] {
			out.Convs = append(out.Convs, c)
			keep[c.Provider+"/"+c.Session] = true
			delete(want, c.File)
		}
	}
	if len(want) > 0 {
		var missing []string
		for f := range want {
			missing = append(missing, f)
		}
		return out, fmt.Errorf("the set has no conversation %s", strings.Join(missing, ", "))
	}
	for _, tr := range set.Turns {
		if keep[tr.Provider+"/"+tr.Session] {
			out.Turns = append(out.Turns, tr)
		}
	}
	return out, nil
}

// Table is a Markdown table of figures side by side, one row per writer,
// as BENCHMARKS.md records them.
func Table(names []string, figs []Figures) string {
	var b strings.Builder
	b.WriteString("| writer | turns | gold facts | blocks | coverage | precision | size | chat | invented | first person |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for i, f := range figs {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.3f | %.3f | %.3f | %.3f | %d | %d |\n", names[i], f.Turns, f.Gold, f.Blocks,
			f.Coverage, f.Precision, f.Size, f.ChatRate, len(f.Invented), len(f.FirstPerson))
	}
	return b.String()
}
