package slack

import "strings"

// renderer turns Slack's message markup into the text a reader sees:
//
//	<@U123>, <@U123|ana>        @Ana (the name from users.json; the label when the user is unknown)
//	<#C123>, <#C123|general>    #general
//	<!here>, <!channel>, <!everyone>   @here, @channel, @everyone
//	<!subteam^S1|@oncall>       @oncall
//	<!date^1700000000^{date}|Nov 14>   Nov 14 (the fallback text)
//	<https://x.io>              https://x.io
//	<https://x.io|the docs>     the docs (https://x.io)
//	<mailto:a@x.io|a@x.io>      a@x.io
//
// and then decodes the three entities Slack escapes (&lt; &gt; &amp;).
// Anything between < and > that is not markup stays as written.
type renderer struct {
	users    map[string]user
	channels map[string]string
}

func (r renderer) render(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '<')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open:], '>')
		if end < 0 {
			break
		}
		b.WriteString(unescape(s[:open]))
		b.WriteString(r.element(s[open+1 : open+end]))
		s = s[open+end+1:]
	}
	b.WriteString(unescape(s))
	return b.String()
}

// element renders what stood between < and >.
func (r renderer) element(inner string) string {
	target, label, hasLabel := strings.Cut(inner, "|")
	label = unescape(label)
	switch {
	case strings.HasPrefix(target, "@") && alnum(target[1:]):
		id := target[1:]
		if name := r.users[id].display(); name != "" {
			return "@" + name
		}
		if hasLabel && label != "" {
			return "@" + strings.TrimPrefix(label, "@")
		}
		return "@" + id
	case strings.HasPrefix(target, "#") && alnum(target[1:]):
		id := target[1:]
		if name := r.channels[id]; name != "" {
			return "#" + name
		}
		if hasLabel && label != "" {
			return "#" + strings.TrimPrefix(label, "#")
		}
		return "#" + id
	case strings.HasPrefix(target, "!") && len(target) > 1:
		cmd := target[1:]
		switch {
		case cmd == "here" || cmd == "channel" || cmd == "everyone":
			return "@" + cmd
		case hasLabel && label != "":
			return label
		case strings.HasPrefix(cmd, "subteam^"):
			return "@" + strings.TrimPrefix(cmd, "subteam^")
		}
		return "<" + unescape(inner) + ">"
	case looksLikeURL(target):
		url := unescape(target)
		switch {
		case !hasLabel || label == "" || label == url:
			return url
		case strings.HasPrefix(url, "mailto:") && label == strings.TrimPrefix(url, "mailto:"):
			return label
		}
		return label + " (" + url + ")"
	}
	return "<" + unescape(inner) + ">"
}

// looksLikeURL: Slack links every scheme it recognises (http, https,
// mailto, tel, slack, ftp…); a scheme is letters before a colon.
func looksLikeURL(s string) bool {
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || scheme == "" || rest == "" {
		return false
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// alnum: a user or channel id (U…, W…, B…, C…, G…, D…, S…).
func alnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return s != ""
}

var entities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")

func unescape(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	return entities.Replace(s)
}
