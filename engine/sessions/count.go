package sessions

import "os"

// PendingTurnCount counts the turns the writer still owes workspaceID,
// read-only and best-effort: a missing or unreadable sessions.db owes
// nothing (status must answer even when the store is damaged).
func PendingTurnCount(path, workspaceID string) int {
	if _, err := os.Stat(path); err != nil {
		return 0
	}
	store, err := Open(path, nil)
	if err != nil {
		return 0
	}
	defer store.Close()
	ps, err := store.PendingSessions(workspaceID)
	if err != nil {
		return 0
	}
	total := 0
	for _, p := range ps {
		total += p.Turns
	}
	return total
}
