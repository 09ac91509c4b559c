package archive

import (
	"strings"
	"testing"
)

func TestNormalizeLabelPart_Cases(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"plain", "Bob", "Bob"},
		{"trim and collapse", "  Bob \t\n  Smith  ", "Bob Smith"},
		{"unicode spaces", "a\u00a0\u3000b\u2028c", "a b c"},
		{"control removed", "a\x00b\x7fc\u0085d", "abc d"},
		{"control between spaces", "a \x01 b", "a b"},
		{"brackets", "[admin]", "(admin)"},
		{"colon becomes space", "a:b", "a b"},
		{"colon then collapse", "a : b", "a b"},
		{"colon-space", "Re: hi", "Re hi"},
		{"only colons", ":::", ""},
		{"only controls", "\x01\x02", ""},
		{"cut to 64 runes", strings.Repeat("é", 70), strings.Repeat("é", 64)},
		{"exactly 64", strings.Repeat("x", 64), strings.Repeat("x", 64)},
		{"cut lands on space", strings.Repeat("x", 63) + " yz", strings.Repeat("x", 63)},
		{"cut after collapsed spaces", strings.Repeat("x", 62) + "   yz", strings.Repeat("x", 62) + " y"},
		{"invalid UTF-8", "a\xffb", "a\ufffdb"},
		{"CJK", "张三", "张三"},
	}
	for _, tt := range tests {
		if got := NormalizeLabelPart(tt.in); got != tt.want {
			t.Errorf("%s: NormalizeLabelPart(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestSpeakerLabel_Cases(t *testing.T) {
	tests := []struct{ display, id, want string }{
		{"B", "u456", "B (u456)"},
		{"", "u456", "u456"},
		{"B", "", "B"},
		{"", "", ""},
		{" \t", "\x01", ""},
		{"张三", "u123", "张三 (u123)"},
		{"[B]: x", "id:1", "(B) x (id 1)"},
		{"Bob (work)", "u1", "Bob (work) (u1)"},
	}
	for _, tt := range tests {
		if got := SpeakerLabel(tt.display, tt.id); got != tt.want {
			t.Errorf("SpeakerLabel(%q, %q) = %q, want %q", tt.display, tt.id, got, tt.want)
		}
	}
}
