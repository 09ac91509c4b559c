package distill

import "testing"

// English rewriting (distill18), in sentences written here (not from the
// labelled set).
func TestRewrite_English18(t *testing.T) {
	names := map[string]bool{"Tadhg": true, "Orla": true}
	for _, tc := range []struct {
		text, subject string
		want          string
	}{
		// "myself" for "I" is the speaker, named.
		{"Tadhg and myself are driving to Sligo on Friday", "Maeve Daly", "Tadhg and Maeve Daly are driving to Sligo on Friday."},
		{"I fixed the boiler myself", "Maeve Daly", "Maeve Daly fixed the boiler themselves."},
		// "'d" before a past participle is "had".
		{"I'd booked the Friday off for it", "Colm", "Colm had booked the Friday off for it."},
		{"I'd already paid the deposit", "Colm", "Colm had already paid the deposit."},
		{"I'd love a week in Kerry", "Colm", "Colm would love a week in Kerry."},
		{"I'd need a lift from the station", "Colm", "Colm would need a lift from the station."},
		{"we'd moved the date before the storm", "Colm", "Colm said they had moved the date before the storm."},
		// A trailing "I think" is the speaker's, in front.
		{"the library opens late on Thursdays I think", "Orla", "Orla thinks the library opens late on Thursdays."},
		{"Tadhg has the spare key, I reckon", "Maeve", "Maeve reckons Tadhg has the spare key."},
		// A fragment whose only verb is in a "we" clause is quoted, not "said Ceiling…".
		{"Kitchen of the flat we haven't seen yet", "Orla", `Orla said: "Kitchen of the flat we haven't seen yet"`},
		{"Saturday we're painting the hall", "Orla", "Orla said Saturday they are painting the hall."},
		{"The flat we saw is gone", "Orla", "Orla said the flat they saw is gone."},
	} {
		if got := rewrite(tc.text, tc.subject, rewriteOptions{names: names}); got != tc.want {
			t.Errorf("rewrite(%q, %q) = %q, want %q", tc.text, tc.subject, got, tc.want)
		}
	}
}
