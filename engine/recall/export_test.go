package recall

// Searches is how many searches recalls have asked for.
func Searches() int64 { return searches.Load() }
