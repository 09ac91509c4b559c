package engine

import "scriptorium/workspace/archive"

// archiveBatch computes the new bytes of every v2 archive a batch of
// records lands in (archive.Batch), against the names already on disk and
// the archives of s. The whole batch is rejected, before any directory or
// file is touched, when a record is invalid or a name is unsafe or
// collides (SPEC §3.1).
func (e *Engine) archiveBatch(s *snapshot, recs []archive.Record) (map[string][]byte, []archive.Frame, error) {
	return archive.Batch(archive.NamesIn(e.ws.Root()), recs, func(p string) []byte {
		if a, ok := s.archives[p]; ok {
			return a.data
		}
		return nil
	})
}
