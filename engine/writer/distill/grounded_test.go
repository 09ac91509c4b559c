package distill

import (
	"slices"
	"testing"
	"time"
)

func TestUnsupported(t *testing.T) {
	at := time.Date(2025, 3, 8, 13, 20, 0, 0, time.UTC) // a Saturday
	for _, tc := range []struct {
		name, text string
		evidence   []Evidence
		names      []string
		want       []string
	}{
		{"stems match", "The owner prefers recipes under 30 minutes.",
			[]Evidence{{Text: "I prefer a recipe that takes under 30 minutes"}}, []string{"the owner"}, nil},
		{"a conjugated verb matches its base", "Ruth goes to London and does the planning.",
			[]Evidence{{Text: "I go to London to do planning"}}, []string{"Ruth"}, nil},
		{"an invented word is reported once", "Melanie loves her new job and her new boss.",
			[]Evidence{{Text: "I started a new job"}}, []string{"Melanie"}, []string{"loves", "boss"}},
		{"names and function words aside", "Melanie Park's sister is there.",
			[]Evidence{{Text: "my sister is there"}}, []string{"Melanie Park"}, nil},
		{"a date the evidence resolves", "Nadia comes next month (2025-04).",
			[]Evidence{{Text: "I come next month", Time: at}}, []string{"Nadia"}, nil},
		{"a date it does not", "Nadia comes next month (2025-05).",
			[]Evidence{{Text: "I come next month", Time: at}}, []string{"Nadia"}, []string{"2025-05"}},
		{"a week", "Mel fires it next week (week of 2025-03-10).",
			[]Evidence{{Text: "it fires next week", Time: at}}, []string{"Mel"}, nil},
		{"the day it was said", "On 2025-03-08 Mel said it.",
			[]Evidence{{Text: "it", Time: at}}, []string{"Mel"}, nil},
		{"a number must be there", "Mel ran 59 minutes.",
			[]Evidence{{Text: "I ran 58 minutes"}}, []string{"Mel"}, []string{"59"}},
		{"no evidence holds nothing", "Karim cooks.", nil, nil, []string{"karim", "cooks"}},
		{"curly apostrophes", "The owner can’t stand mushrooms.",
			[]Evidence{{Text: "I can't stand mushrooms"}}, []string{"the owner"}, nil},
		{"the framing verb", `Mel said: "we move"`, []Evidence{{Text: "we move"}}, []string{"Mel"}, nil},
		{"CJK", "Lin Wei九月要搬回上海了。", []Evidence{{Text: "我九月要搬回上海了"}}, []string{"Lin Wei"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unsupported(tc.text, tc.evidence, tc.names...); !slices.Equal(got, tc.want) {
				t.Errorf("Unsupported(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
