package httpapi

// These tests open the engine themselves (programs open it through app,
// which links the search service); the service registers itself with the
// core when linked.
import _ "scriptorium/engine/search"
