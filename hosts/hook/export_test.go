package hook

// SetImportBytesPerEvent lowers the per-event import bound for a test and
// returns what restores it.
func SetImportBytesPerEvent(n int64) (restore func()) {
	old := importBytesPerEvent
	importBytesPerEvent = n
	return func() { importBytesPerEvent = old }
}
