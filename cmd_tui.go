package main

import "scriptorium/engine"

func runTUI(inv *invocation) error {
	return engine.Errorf(engine.CodeNotConfigured, "the TUI is not wired yet")
}
