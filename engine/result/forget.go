package result

import "fmt"

// ForgetSelector chooses what a forget removes. Exactly one field is set.
type ForgetSelector struct {
	// Sources are source-ids.
	Sources []string `json:"sources,omitempty"`
	// Speaker is a trusted speaker id: every record a v2 frame attributes
	// to it (legacy speaker hints are never trusted, so never selected).
	Speaker string `json:"speaker,omitempty"`
	// Thread is <provider>/<thread>: every record of that thread and its
	// sessions.db session.
	Thread string `json:"thread,omitempty"`
}

// String names the selection in words: "speaker u456", "thread
// telegram/group-42", "source openprogram/s/1" or "3 sources".
func (s ForgetSelector) String() string {
	switch {
	case s.Speaker != "":
		return "speaker " + s.Speaker
	case s.Thread != "":
		return "thread " + s.Thread
	case len(s.Sources) == 1:
		return "source " + s.Sources[0]
	}
	return fmt.Sprintf("%d sources", len(s.Sources))
}

// ForgetChange is one place that holds the forgotten content and what
// forgetting does there, as a diff.
type ForgetChange struct {
	Path string `json:"path"`
	// Kind is archive, topic, derived, index, embeddings (vectors keyed by
	// the text's hash) or sessions; history (state.db rows), proposal and
	// runtime (status files and logs) name the other places an earlier
	// copy is scrubbed from.
	Kind string `json:"kind"`
	Diff string `json:"diff"`
}

// ForgetResult is what a forget removed, or would remove on a dry run.
type ForgetResult struct {
	// Sources are the source-ids whose records are forgotten.
	Sources []string       `json:"sources"`
	Changes []ForgetChange `json:"changes"`
	// Turns is the number of sessions.db nodes blanked.
	Turns int `json:"turns"`
	// Revision is the forget's own revision; absent on a dry run.
	Revision int64 `json:"revision,omitempty"`

	Blocks    []string `json:"-"` // block ids removed from topics
	Citations int      `json:"-"` // citations dropped from blocks that stay
	// Vectors counts the embeddings.db vectors of forgotten text (keyed by
	// its SHA-256) removed; in JSON it is the "embeddings" change's diff.
	Vectors int `json:"-"`
}

// ForgetEntry is one row of the forget ledger.
type ForgetEntry struct {
	Revision int64          `json:"revision"`
	Time     string         `json:"time"`
	Actor    string         `json:"actor"`
	Selector ForgetSelector `json:"selector"`
	// Records are the removed records with the SHA-256 of their bytes.
	Records []ForgetRecordHash `json:"records"`
	Turns   int                `json:"turns"`
	// Cleaned names what else was scrubbed of the text: history rows,
	// sleep passes, events, proposals, runtime files.
	Cleaned []string `json:"cleaned"`
	Done    bool     `json:"done"`
}

// ForgetRecordHash is one removed record of the ledger.
type ForgetRecordHash struct {
	SourceID string `json:"source_id"`
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
}

// ForgottenRecord is one archived record ForgetArchives removes: where it
// was and the SHA-256 of its bytes.
type ForgottenRecord struct {
	SourceID string `json:"source_id"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	SHA256   string `json:"sha256"`
}
