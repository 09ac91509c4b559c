package archive

import "testing"

func TestPathParts(t *testing.T) {
	for _, c := range []struct {
		p, provider, thread string
		v2, ok              bool
	}{
		{"sources/telegram/_v2/group-42.md", "telegram", "group-42", true, true},
		{"sources/openprogram/sess.md", "openprogram", "sess", false, true},
		{"topics/a.md", "", "", false, false},
		{"sources/a/b/c/d.md", "", "", false, false},
	} {
		provider, thread, v2, ok := PathParts(c.p)
		if provider != c.provider || thread != c.thread || v2 != c.v2 || ok != c.ok {
			t.Errorf("PathParts(%q) = %q %q %v %v", c.p, provider, thread, v2, ok)
		}
	}
}
