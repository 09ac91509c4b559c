package views

// Two different things are trusted or not, and the panes name them apart:
// the speaker's identity (did the name come from the channel's structured
// fields of a v2 frame, or from text anyone could type?) and the record
// (is it memory yet, or pending the owner's review?). A verified speaker
// can still send a pending record: an unpaired sender in a group chat.

// speakerNote says how far a speaker's name can be believed.
func speakerNote(label, id string, verified, legacy bool) string {
	switch {
	case label == "":
		return "no speaker identity"
	case legacy:
		return "unverified (legacy hint)"
	case !verified:
		return "unverified"
	case id == "":
		return "display name only, no id"
	}
	return "identity verified"
}

// speakerPlain is a pending source's speaker with the note: pending
// sources are always v2 frames, so a label there came from the channel.
func speakerPlain(label, id string) string {
	if label == "" {
		return "no speaker identity"
	}
	return OneLine(label) + " — " + speakerNote(label, id, true, false)
}

// speakerStyled is speakerPlain with the note coloured.
func speakerStyled(st *Styles, label, id string, verified, legacy bool) string {
	note := speakerNote(label, id, verified, legacy)
	styled := st.Trusted.Render(note)
	if note != "identity verified" && note != "display name only, no id" {
		styled = st.Pending.Render(note)
	}
	if label == "" {
		return styled
	}
	return Visible(label) + " — " + styled
}

// recordStyled says what a record's trust word means, coloured.
func recordStyled(st *Styles, trust string) string {
	if trust == "trusted" {
		return st.Trusted.Render("trusted")
	}
	return st.Pending.Render("pending review")
}
