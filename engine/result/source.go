package result

// Source is one resolved source record of a View.
type Source struct {
	SourceView
	// Thread is "<provider>/<thread>" of the archive holding the record.
	Thread string
	// Pending is true until the owner promotes the record.
	Pending bool
	// ArrivedPending says the record arrived pending review (an unpaired
	// sender); Promoted that the owner promoted it since.
	ArrivedPending, Promoted bool
}
