// Package demo writes the demo state dir: built-in conversations run
// through the real engine, writer and sleep pass, so the demo shows what
// the product does rather than a hand-made picture of it.
package demo
