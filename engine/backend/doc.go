// Package backend is the contract between memory and an agent runtime
// (Backend) and its embedded implementation (Local) on an open engine.
// Agent loops, tools and UIs call a Backend and name no implementation.
package backend
