package topic

import (
	"os"
	"path/filepath"
	"testing"
)

func TestProjectRoot(t *testing.T) {
	repo := filepath.ToSlash(t.TempDir()) + "/ledgerline"
	if err := os.MkdirAll(repo+"/.git", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(repo+"/cmd/api", 0o755); err != nil {
		t.Fatal(err)
	}
	known := func(s string) bool { return s == "heron" }
	for _, c := range []struct{ cwd, want string }{
		{"/home/nadia/src/heron/deploy", "/home/nadia/src/heron"},        // a known project, path absent here
		{"/home/nadia/src/heron/", "/home/nadia/src/heron"},              // the project itself
		{`C:\Users\n\heron\deploy\k8s`, "C:/Users/n/heron"},              // a Windows transcript
		{"/home/nadia/src/other/deploy", "/home/nadia/src/other/deploy"}, // nothing known: the cwd
		{repo + "/cmd/api", repo},                                        // the repository root on disk
		{"", ""},
	} {
		if got := ProjectRoot(c.cwd, known); got != c.want {
			t.Errorf("ProjectRoot(%q) = %q, want %q", c.cwd, got, c.want)
		}
	}
	got := KnownProjects([]string{"topics/projects/heron.md", "topics/projects/x/y.md", "topics/people/heron.md"})
	if len(got) != 1 || !got["heron"] {
		t.Errorf("KnownProjects = %v", got)
	}
}
