// Package views holds one Bubble Tea component per pane (pending, topics, source drill-down, core, passes, search, status).
package views
