package search

// The unexported parts of the document building that the golden test
// (package search_test: it imports engine/forget, which imports search)
// checks.
var (
	Resync  = resync
	Holds   = holds
	HitText = hitText
)
