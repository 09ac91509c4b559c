package sessions

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"scriptorium/workspace/archive"
)

func TestThreadName(t *testing.T) {
	cases := []struct{ session, want string }{
		{"s1", "s1"},
		{"C024BE91L", "C024BE91L"},
		{"-100123456", "-100123456"},
		{"a.b_c~d+e=f,g@h", "a.b_c~d+e=f,g@h"},
		{"家庭群", "家庭群"},
		{"con:aux<>|?*", "con%3Aaux%3C%3E%7C%3F%2A"},
		{"agent:main:main", "agent%3Amain%3Amain"},
		{"#general", "%23general"},
		{"50%", "50%25"},
		{"a b", "a%20b"},
		{".hidden", "%2Ehidden"},
		{"trailing.", "trailing%2E"},
		{"a..b", "a.%2Eb"},
		{"...", "%2E.%2E"},
		{"a--b", "a-%2Db"},
		{"a---b", "a-%2D-b"},
		{"con", "%63on"},
		{"NUL.txt", "%4EUL.txt"},
		{"com1", "%63om1"},
		{"lpt9.log", "%6Cpt9.log"},
		{"console", "console"},
		{"a/b\\c", "a%2Fb%5Cc"},
		{"tab\there", "tab%09here"},
		{"\u202egnp.exe", "%E2%80%AEgnp.exe"}, // a bidi override is not a letter
	}
	for _, tc := range cases {
		if got := threadName(tc.session); got != tc.want {
			t.Errorf("threadName(%q) = %q, want %q", tc.session, got, tc.want)
		}
	}
}

// safeThread is what every thread name must be: a valid archive segment
// that is also a file name on Windows, fits in a source-id and in a
// Markdown link destination.
func safeThread(name string) bool {
	if archive.ValidSegment(name) != nil || archive.ValidateSourceID("p/"+name+"/x") != nil ||
		len(name)+len(".md") > 255 || windowsDeviceName(name) ||
		strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "--") {
		return false
	}
	for _, r := range name {
		if r != '%' && !portableRune(r) {
			return false
		}
	}
	return true
}

func TestThreadName_AlwaysSafeAndDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aZ09-_.~%:/\\<>|?*\" #()[]\t\n\x00é家\u202e\u0301")
	seen := map[string]string{}
	for range 20000 {
		n := 1 + rng.IntN(12)
		if rng.IntN(50) == 0 {
			n = 150 + rng.IntN(60) // long ids, cut with a hash
		}
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		session := b.String()
		if len(session) > maxThreadBytes {
			session = session[:maxThreadBytes]
			for !utf8.ValidString(session) {
				session = session[:len(session)-1]
			}
		}
		for _, name := range threadCandidates(session) {
			if !safeThread(name) {
				t.Fatalf("thread name %q of %q is not safe", name, session)
			}
		}
		name := threadName(session)
		if name != threadName(session) {
			t.Fatalf("threadName(%q) is not deterministic", session)
		}
		if other, ok := seen[name]; ok && other != session {
			t.Fatalf("%q and %q both map to %q", other, session, name)
		}
		seen[name] = session
	}
}

func TestPortableName(t *testing.T) {
	for name, want := range map[string]bool{
		"openprogram": true, "telegram": true, "my-bot_2": true, "Slack": true,
		"": false, ".": false, "..": false, "a..b": false, "a:b": false, "a b": false, "aux": false,
		"a%b": false, "x.": false, ".x": false, "a--b": false, strings.Repeat("a", 201): false,
	} {
		if got := portableName(name); got != want {
			t.Errorf("portableName(%q) = %v, want %v", name, got, want)
		}
	}
}
