package distill

import "strings"

// Chatwork writes its markup into the message: "[To:5580112]" and "[rp
// aid=… to=…]" address someone, "[info][title]…[/title]…[/info]" frames
// a notice, "[task]…[/task]" a task, "[qt]…[/qt]" a quote. A turn that
// opens with one is no forward or media placeholder (relayed.go): the
// tags are the app's, the words between them the speaker's. They are
// read without them; a title ends its line, and a quote, someone else's
// words, is left out.

// chatworkTagRe is one of Chatwork's tags.
var chatworkTagRe = lazyRegexp(`\[(?:To:\d*|rp(?: aid=[^\]\n]{0,40})?|/?(?:info|title|task|hr|code)|picon(?:name)?:\d+)\]`)

// chatworkQuoteRe is a quoted message with its header.
var chatworkQuoteRe = lazyRegexp(`(?s)\[qt\].*?\[/qt\]`)

// withoutChatworkTags is c without Chatwork's markup.
func withoutChatworkTags(c string) string {
	if !strings.Contains(c, "[") || !chatworkTagRe.MatchString(c) && !strings.Contains(c, "[qt]") {
		return c
	}
	c = chatworkQuoteRe.ReplaceAllString(c, "")
	c = strings.ReplaceAll(c, "[/title]", "\n")
	return strings.TrimSpace(chatworkTagRe.ReplaceAllString(c, " "))
}
