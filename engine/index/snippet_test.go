package index

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestMakeSnippet_Cases(t *testing.T) {
	long := strings.Repeat("lorem ipsum dolor sit amet ", 20) // 540 runes
	withMatch := long + "the copper kettle is in the shed " + long
	tests := []struct {
		name         string
		text, query  string
		max          int
		want         string // exact snippet, when set
		wantContains string
		wantComplete bool
	}{
		{name: "short text is complete", text: "copper kettle", query: "copper", max: 50,
			want: "copper kettle", wantComplete: true},
		{name: "exactly max runes", text: "密钥可以给他", query: "密钥", max: 6,
			want: "密钥可以给他", wantComplete: true},
		{name: "white space kept", text: "a\r\nb  \u2028", query: "a", max: 10,
			want: "a\r\nb  \u2028", wantComplete: true},
		{name: "empty text", text: "", query: "x", max: 10, want: "", wantComplete: true},
		{name: "no match starts at the beginning", text: long, query: "zebra", max: 30,
			want: "lorem ipsum dolor sit amet"},
		{name: "centred on the match", text: withMatch, query: "kettle", max: 60,
			wantContains: "copper kettle is in the shed"},
		{name: "window with most distinct terms", text: "copper " + long + " copper kettle shed " + long,
			query: "copper kettle shed", max: 40, wantContains: "copper kettle shed"},
		{name: "cjk without spaces", text: strings.Repeat("今天天气很好", 20) + "密钥在抽屉里" + strings.Repeat("我们去公园散步", 20),
			query: "密钥", max: 20, wantContains: "密钥在抽屉里"},
		{name: "stemmed match", text: long + "she was running late" + long, query: "runs", max: 40,
			wantContains: "running"},
		{name: "default length", text: long, query: "lorem", max: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, complete := MakeSnippet(tt.text, tt.query, tt.max)
			if complete != tt.wantComplete {
				t.Errorf("complete = %v, want %v", complete, tt.wantComplete)
			}
			if complete != (got == tt.text) {
				t.Errorf("complete = %v but snippet == text is %v", complete, got == tt.text)
			}
			if tt.want != "" || tt.wantComplete {
				if got != tt.want {
					t.Errorf("snippet = %q, want %q", got, tt.want)
				}
			}
			if !strings.Contains(got, tt.wantContains) {
				t.Errorf("snippet %q lacks %q", got, tt.wantContains)
			}
			if !strings.Contains(tt.text, got) {
				t.Errorf("snippet %q is not a substring of the text", got)
			}
			max := tt.max
			if max <= 0 {
				max = DefaultSnippetRunes
			}
			if n := utf8.RuneCountInString(got); n > max {
				t.Errorf("snippet has %d runes, max %d", n, max)
			}
			if !complete && utf8.RuneCountInString(got) < max-2*softCut {
				t.Errorf("snippet %q is much shorter than %d runes", got, max)
			}
		})
	}
}

func TestParseBound_Cases(t *testing.T) {
	tests := []struct {
		in    string
		until bool
		want  time.Time
		err   bool
	}{
		{in: "", want: time.Time{}},
		{in: "2024-03-15", want: time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)},
		{in: "2024-03-15", until: true, want: time.Date(2024, 3, 15, 23, 59, 59, 999999999, time.UTC)},
		{in: " 2024-03-15 ", want: time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)},
		{in: "2024-03-15T12:00:00Z", until: true, want: time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)},
		{in: "2024-03-15T14:00:00+02:00", want: time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)},
		{in: "2024-03-15T12:00:00.25Z", want: time.Date(2024, 3, 15, 12, 0, 0, 250000000, time.UTC)},
		{in: "2024-02-30", err: true},
		{in: "15/03/2024", err: true},
		{in: "2024-03-15 12:00", err: true},
		{in: "yesterday", err: true},
	}
	for _, tt := range tests {
		got, err := ParseBound(tt.in, tt.until)
		if (err != nil) != tt.err {
			t.Errorf("ParseBound(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if !got.Equal(tt.want) || got.Location() != time.UTC && !got.IsZero() {
			t.Errorf("ParseBound(%q, %v) = %v, want %v", tt.in, tt.until, got, tt.want)
		}
	}
}

func TestPathPrefixes_Cases(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"sources/openprogram/_v2/sess.md", []string{"sources/", "sources/openprogram/", "sources/openprogram/_v2/", "sources/openprogram/_v2/sess.md"}},
		{"./topics/core.md", []string{"topics/", "topics/core.md"}},
		{"core.md", []string{"core.md"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := pathPrefixes(tt.in); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("pathPrefixes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
