// Package clitest holds the fixtures the program's end-to-end tests share:
// the real binary built once, a runner for it (or for the CLI in-process,
// handed in by the root package's tests), state dirs that a forget must
// clean, a served API, and the small file helpers the crash tests use. The
// root package's tests and the robustness suite under tests/ both call it,
// so no helper is copied between them.
package clitest
