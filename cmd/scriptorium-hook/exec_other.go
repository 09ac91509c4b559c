//go:build !linux

package main

import (
	"bytes"
	"os"
	"os/exec"
)

// execCLI runs `cli hook ARGS…` as a child with this program's stdout and
// stderr, and its stdin the event this program read (data), or this
// stdin when it read none. Where there is no exec with an in-memory stdin
// the hook's deadlines count from the child's start. It returns only on
// failure; on success this process exits with status 0.
func execCLI(cli string, args []string, data []byte) error {
	cmd := exec.Command(cli, append([]string{"hook"}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if data != nil {
		cmd.Stdin = bytes.NewReader(data)
	}
	if err := cmd.Run(); err != nil {
		return err
	}
	os.Exit(0)
	return nil
}
