package sessions

import (
	"context"
	"fmt"
)

// ownerNamesSchema is migration 5: the owner's turns that carry a display
// name (a chat export where the owner was named with import --owner), so
// the writer learns what to call the owner without reading every turn.
const ownerNamesSchema = `CREATE INDEX nodes_owner_names ON nodes(speaker_display)
	WHERE tier = 'owner' AND speaker_display <> '';`

// NameCount is a display name and how many turns carry it.
type NameCount struct {
	Name  string
	Turns int
}

// OwnerNames are the display names the owner's own turns carry (turns of
// the owner's tier with a display name: a chat where import --owner named
// the owner), most turns first, then by name. An untrusted or paired
// sender's name is never among them; forget blanks a turn's display name
// with its text. The query reads only the partial index.
func (s *Store) OwnerNames(ctx context.Context) ([]NameCount, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT speaker_display, count(*) FROM nodes
	 WHERE tier = 'owner' AND speaker_display <> ''
	 GROUP BY speaker_display ORDER BY count(*) DESC, speaker_display`)
	if err != nil {
		return nil, fmt.Errorf("owner names: %w", err)
	}
	defer rows.Close()
	var out []NameCount
	for rows.Next() {
		var nc NameCount
		if err := rows.Scan(&nc.Name, &nc.Turns); err != nil {
			return nil, fmt.Errorf("owner names: %w", err)
		}
		out = append(out, nc)
	}
	return out, rows.Err()
}
