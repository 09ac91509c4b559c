// Package daemon is the scheduler of `scriptorium daemon`: the nightly
// sleep pass at daemon.sleep_at local time and the idle-session watcher,
// on one goroutine driven by an injectable clock, until cancelled.
package daemon
