package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestResolveStateDir_Cases(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	const home = "/home/ann"
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == StateEnv {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name      string
		flag      string
		profile   string
		getenv    func(string) string
		home      string
		want      string
		wantErrIs error
	}{
		{name: "default", getenv: env(""), home: home, want: "/home/ann/.openprogram"},
		{name: "nil getenv", home: home, want: "/home/ann/.openprogram"},
		{name: "env", getenv: env("/srv/mem"), home: home, want: "/srv/mem"},
		{name: "flag beats env", flag: "/x/state", getenv: env("/srv/mem"), home: home, want: "/x/state"},
		{name: "profile", profile: "work", getenv: env(""), home: home, want: "/home/ann/.openprogram-work"},
		{name: "profile beats env", profile: "work", getenv: env("/srv/mem"), home: home, want: "/home/ann/.openprogram-work"},
		{name: "unicode profile", profile: "工作", home: home, want: "/home/ann/.openprogram-工作"},
		{name: "flag and profile conflict", flag: "/x", profile: "work", home: home, wantErrIs: ErrConflictingFlags},
		{name: "flag cleaned", flag: "/x/../y//state/", home: home, want: "/y/state"},
		{name: "relative flag made absolute", flag: "rel/state", home: home, want: filepath.Join(cwd, "rel/state")},
		{name: "tilde flag", flag: "~/alt", home: home, want: "/home/ann/alt"},
		{name: "bare tilde env", getenv: env("~"), home: home, want: "/home/ann"},
		{name: "tilde user not expanded", flag: "~bob/x", home: home, want: filepath.Join(cwd, "~bob/x")},
		{name: "tilde without home", flag: "~/alt", wantErrIs: ErrNoHome},
		{name: "default without home", getenv: env(""), wantErrIs: ErrNoHome},
		{name: "profile without home", profile: "work", wantErrIs: ErrNoHome},
		{name: "flag without home is fine", flag: "/x", want: "/x"},
		{name: "profile with slash", profile: "a/b", home: home, wantErrIs: ErrUnsafeName},
		{name: "profile dotdot", profile: "..", home: home, wantErrIs: ErrUnsafeName},
		{name: "profile backslash", profile: `a\b`, home: home, wantErrIs: ErrUnsafeName},
		{name: "profile control", profile: "a\nb", home: home, wantErrIs: ErrUnsafeName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveStateDir(tt.flag, tt.profile, tt.getenv, tt.home)
			if tt.wantErrIs != nil {
				if !errors.Is(err, tt.wantErrIs) {
					t.Fatalf("err = %v, want %v", err, tt.wantErrIs)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got != filepath.FromSlash(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStateHelpers_Paths(t *testing.T) {
	state := filepath.FromSlash("/s")
	tests := []struct{ got, want string }{
		{MemoryDir(state), "/s/memory"},
		{SessionsDB(state), "/s/sessions.db"},
		{ConfigPath(state), "/s/config.toml"},
		{SupersededDir(state), "/s/memory-superseded"},
	}
	for _, tt := range tests {
		if tt.got != filepath.FromSlash(tt.want) {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestCheckSegment_Cases(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"openprogram", true},
		{"sess-7f2a", true},
		{"a.b", true},
		{".hidden", true},
		{"张三", true},
		{"with space", true},
		{"", false},
		{".", false},
		{"..", false},
		{"a..b", false},
		{"a/b", false},
		{`a\b`, false},
		{"a\x00b", false},
		{"a\tb", false},
		{"a\x7fb", false},
		{"a\u0085b", false}, // C1 control
		{"\xff", false},
	}
	for _, tt := range tests {
		err := CheckSegment(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("CheckSegment(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrUnsafeName) {
			t.Errorf("CheckSegment(%q) error %v does not match ErrUnsafeName", tt.name, err)
		}
	}
}
