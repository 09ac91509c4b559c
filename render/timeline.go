package render

import (
	"strings"
)

var (
	linkTextEscaper = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `<`, `\<`)
	linkDestEscaper = strings.NewReplacer("<", "%3C", ">", "%3E", "\n", "%0A", "\r", "%0D")
	oneLine         = strings.NewReplacer("\n", " ", "\r", " ")
)

// Timeline renders timeline/YYYY/MM/DD.md files (SPEC §8): one file per
// date that appears in a trusted block's footnotes, keyed by its workspace
// path. Each file has the date as its title, a section per topic in path
// order, and a list item per block in file order whose text is the block's
// excerpt and whose link points at the block. Dates that are not valid
// YYYY-MM-DD calendar dates are ignored.
func Timeline(topics []Topic) map[string][]byte {
	byDate := map[string][]entry{}
	for _, e := range trustedEntries(topics) {
		for _, d := range blockDates(e.block) {
			byDate[d] = append(byDate[d], e)
		}
	}
	out := make(map[string][]byte, len(byDate))
	for date, entries := range byDate {
		var b strings.Builder
		b.WriteString("# " + date + "\n")
		section := ""
		for i, e := range entries {
			if i == 0 || e.path != section {
				section = e.path
				b.WriteString("\n## " + oneLine.Replace(section) + "\n\n")
			}
			b.WriteString("- [" + escapeLinkText(excerpt(e.block.Text)) + "](" +
				linkDest("../../../"+e.path+"#^"+e.block.ID) + ")\n")
		}
		out[timelinePath(date)] = []byte(b.String())
	}
	return out
}

// timelinePath returns the workspace path of the timeline file for a
// YYYY-MM-DD date.
func timelinePath(date string) string {
	return "timeline/" + date[0:4] + "/" + date[5:7] + "/" + date[8:10] + ".md"
}

// escapeLinkText escapes the characters that would end Markdown link text
// or open raw HTML inside it.
func escapeLinkText(s string) string {
	return linkTextEscaper.Replace(s)
}

// linkDest writes a Markdown link destination, bracketing it when it holds
// characters a bare destination cannot.
func linkDest(p string) string {
	p = linkDestEscaper.Replace(p)
	if strings.ContainsAny(p, " \t()") {
		return "<" + p + ">"
	}
	return p
}
