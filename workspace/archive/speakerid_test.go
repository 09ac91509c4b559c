package archive

import (
	"errors"
	"testing"
)

func TestEncodeSpeakerID_Cases(t *testing.T) {
	tests := []struct{ id, want string }{
		{"", ""},
		{"u456", "u456"},
		{"AZaz09-._~", "AZaz09-._~"},
		{"a-b", "a-b"},
		{"a--b", "a-%2Db"},
		{"a---b", "a-%2D-b"},
		{"a----b", "a-%2D-%2Db"},
		{"--", "-%2D"},
		{"-", "-"},
		{"a-", "a-"},
		{"a b", "a%20b"},
		{"a/b:c@d", "a%2Fb%3Ac%40d"},
		{"%", "%25"},
		{"é", "%C3%A9"},
		{"张", "%E5%BC%A0"},
		{"-->", "-%2D%3E"},
		{"\x00\n", "%00%0A"},
		{"a-%b", "a-%25b"},
	}
	for _, tt := range tests {
		if got := EncodeSpeakerID(tt.id); got != tt.want {
			t.Errorf("EncodeSpeakerID(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func TestDecodeSpeakerID_Valid(t *testing.T) {
	tests := []struct{ enc, want string }{
		{"", ""},
		{"u456", "u456"},
		{"a-%2Db", "a--b"},
		{"a-%2D-b", "a---b"},
		{"-%2D", "--"},
		{"%C3%A9", "é"},
		{"a%20b", "a b"},
		{"~._-", "~._-"},
	}
	for _, tt := range tests {
		got, err := DecodeSpeakerID(tt.enc)
		if err != nil || got != tt.want {
			t.Errorf("DecodeSpeakerID(%q) = %q, %v; want %q, nil", tt.enc, got, err, tt.want)
		}
	}
}

func TestDecodeSpeakerID_Invalid(t *testing.T) {
	tests := []struct{ name, enc string }{
		{"lower-case hex", "%c3%a9"},
		{"mixed-case hex", "%C3%a9"},
		{"needless escape of letter", "%41"},
		{"needless escape of single dash", "a%2Db"},
		{"needless escape of tilde", "%7E"},
		{"literal double dash", "a--b"},
		{"leading double dash", "--"},
		{"bad escape digit", "%G1"},
		{"truncated escape", "%4"},
		{"lone percent", "%"},
		{"unescaped space", "a b"},
		{"unescaped slash", "a/b"},
		{"unescaped non-ASCII", "é"},
		{"invalid UTF-8", "%FF"},
		{"truncated UTF-8", "%C3"},
		{"comment end", "-->"},
	}
	for _, tt := range tests {
		got, err := DecodeSpeakerID(tt.enc)
		if !errors.Is(err, ErrInvalidSpeakerID) {
			t.Errorf("%s: DecodeSpeakerID(%q) = %q, %v; want ErrInvalidSpeakerID", tt.name, tt.enc, got, err)
		}
	}
}
