package treetest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Edits made behind the engine's back, for the staleness tests of the
// core and the search service.

// EditInPlace replaces the first from with to (the same length) in the
// file at p, writing into the same inode and setting the old mtime back:
// only ctime (or the racy hash) can tell the file changed.
func EditInPlace(t testing.TB, p, from, to string) {
	t.Helper()
	if len(from) != len(to) {
		t.Fatalf("EditInPlace %q → %q changes the size", from, to)
	}
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(strings.Replace(string(data), from, to, 1)), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(p, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(p)
	if after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) || !os.SameFile(before, after) {
		t.Fatal("the edit did not keep size, mtime and inode")
	}
}

// Git returns a runner of git commands in dir (a new repository there
// after run("init")); the test is skipped without git.
func Git(t testing.TB, dir string) func(args ...string) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
