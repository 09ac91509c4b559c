//go:build !linux

package workspace

// unreliableLockFS is only implemented on Linux; elsewhere nothing is
// reported.
func unreliableLockFS(string) string { return "" }
