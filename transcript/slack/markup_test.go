package slack

import "testing"

func TestRender(t *testing.T) {
	r := renderer{
		users: map[string]user{
			"U1": {Name: "ana.lima", Profile: struct {
				DisplayName string `json:"display_name"`
				RealName    string `json:"real_name"`
			}{DisplayName: "ana"}},
			"U2": {Name: "ben", RealName: "Ben Okafor"},
		},
		channels: map[string]string{"C1": "general"},
	}
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"", ""},
		{"<@U1> hi", "@ana hi"},
		{"<@U2|ben>", "@Ben Okafor"},    // users.json wins over the label
		{"<@U9|old.name>", "@old.name"}, // unknown user: the label
		{"<@U9>", "@U9"},                // unknown, no label: the id
		{"<#C1>", "#general"},           // channel by id
		{"<#C1|renamed>", "#general"},   // channels.json wins
		{"<#C9|random>", "#random"},     // unknown channel: the label
		{"<#C9>", "#C9"},                // nothing known
		{"<!here> <!channel> <!everyone>", "@here @channel @everyone"},
		{"<!here|here>", "@here"},
		{"<!subteam^S1|@oncall>", "@oncall"},
		{"<!subteam^S1>", "@S1"},
		{"<!date^1700000000^{date}|Nov 14th>", "Nov 14th"},
		{"<!unknown>", "<!unknown>"},
		{"<https://x.io>", "https://x.io"},
		{"<https://x.io|https://x.io>", "https://x.io"},
		{"<https://x.io/a?b=1&amp;c=2|the docs>", "the docs (https://x.io/a?b=1&c=2)"},
		{"<mailto:a@x.io|a@x.io>", "a@x.io"},
		{"<mailto:a@x.io|Ana>", "Ana (mailto:a@x.io)"},
		{"<tel:+351123|call me>", "call me (tel:+351123)"},
		{"a &lt;b&gt; &amp; c", "a <b> & c"},
		{"&amp;lt; stays one level", "&lt; stays one level"},
		{"a < b", "a < b"}, // an unescaped < with no > stays
		{"x <not markup> y", "x <not markup> y"},
		{"<@>", "<@>"},
		{"<>", "<>"},
		{"<:smile:>", "<:smile:>"},
		{"nested <@U1 <#C1>>", "nested <@U1 <#C1>>"},
		{"emoji 🦊 <@U1>, RTL مرحبا", "emoji 🦊 @ana, RTL مرحبا"},
		{"crlf\r\n<@U1>\r\n", "crlf\r\n@ana\r\n"},
	}
	for _, c := range cases {
		if got := r.render(c.in); got != c.want {
			t.Errorf("render(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
