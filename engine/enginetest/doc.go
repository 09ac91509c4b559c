// Package enginetest holds the helpers the engine and service tests share:
// fixture workspaces copied from testdata/ws, an engine opened as the CLI
// opens it, and short readers of trees, history and errors. Only tests
// import it.
package enginetest
