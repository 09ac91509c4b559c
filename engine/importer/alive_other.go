//go:build !unix

package importer

// processAlive cannot tell on this system: every staging file is kept.
func processAlive(int) bool { return true }
