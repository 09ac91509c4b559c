package distill

import "strings"

// Markdown's strong emphasis ("**word**", "__word__") is dropped from a
// sentence only where markdown reads it as emphasis around words: never
// inside a code span, and never in a name that holds the marks
// (V202606101415__add_table.sql, __init__.py, src/**/*.go). Dropping every
// "__" once turned a migration's file name into a word no turn holds, and
// the never-invent check then refused the session's summary whole.
var (
	strongStars  = lazyRegexp(`(^|[\s(\["'])\*\*([^\s*](?:[^*]*[^\s*])?)\*\*($|[\s)\]"',;:!?]|\.(?:\s|$))`)
	strongUnders = lazyRegexp(`(^|[\s(\["'])__([^\s_](?:[^_]*[^\s_])?)__($|[\s)\]"',;:!?]|\.(?:\s|$))`)
)

// dropEmphasis is s without its strong-emphasis marks, as above.
func dropEmphasis(s string) string {
	if !strings.Contains(s, "**") && !strings.Contains(s, "__") {
		return s
	}
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 { // the even parts are outside code spans
		for range 4 { // a match takes the space after it, which the next one needs before it
			next := strongUnders.ReplaceAllString(strongStars.ReplaceAllString(parts[i], "$1$2$3"), "$1$2$3")
			if next == parts[i] {
				break
			}
			parts[i] = next
		}
	}
	return strings.Join(parts, "`")
}
