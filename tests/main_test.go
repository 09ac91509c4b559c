// Package tests holds the end-to-end robustness suite: crash points and
// random kills of the real binary, a soak of every verb at once,
// concurrent writers, and the pending canary asked of every read path.
// They run the program as users do (a built binary, often several at
// once), so they sit apart from the root package's CLI tests; the
// fixtures both use are in tests/clitest. (The corruption matrix stays
// beside the CLI: it runs hundreds of read verbs in-process.)
package tests

import (
	"os"
	"testing"

	"scriptorium/tests/clitest"
)

func TestMain(m *testing.M) {
	// The tests never read the caller's state directory.
	os.Unsetenv("SCRIPTORIUM_STATE")
	os.Unsetenv("SCRIPTORIUM_TEST_CRASH_AT")
	code := m.Run()
	clitest.RemoveBinary()
	os.Exit(code)
}

// runCLI runs the real binary with the given stdin.
func runCLI(t *testing.T, stdin string, args ...string) clitest.Result {
	t.Helper()
	return clitest.Exec(clitest.Binary(t))(t, stdin, args...)
}

// mustCLI runs the real binary and fails the test unless it exits 0.
func mustCLI(t *testing.T, args ...string) clitest.Result {
	t.Helper()
	return clitest.Exec(clitest.Binary(t)).Must(t, args...)
}
