package records

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Finish is a post-commit step an install owes (the core's finish.go): the
// service that runs it and its opaque payload (ids and hashes, never text).
type Finish struct {
	Revision int64
	Service  string
	Payload  string
}

// AddInstall records an install's history row and, when f is not nil, the
// finish step it owes, both idempotent so recovery may replay them.
func (s *Store) AddInstall(ctx context.Context, h History, f *Finish) error {
	if err := InsertHistory(ctx, s.db, h); err != nil {
		return err
	}
	if f == nil {
		return nil
	}
	_, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO finishes (revision, service, payload) VALUES (?, ?, ?)`,
		h.Revision, f.Service, f.Payload)
	if err != nil {
		return fmt.Errorf("record the %s finish step: %w", f.Service, err)
	}
	return nil
}

// FinishesOwed reports whether one of services owes a finish step; a read
// that fails says no (the next writer finds them).
func (s *Store) FinishesOwed(services []string) bool {
	if len(services) == 0 {
		return false
	}
	args := make([]any, len(services))
	for i, n := range services {
		args[i] = n
	}
	var n int
	err := s.db.QueryRow(`SELECT count(*) FROM finishes WHERE done = 0 AND service IN (?`+
		strings.Repeat(", ?", len(services)-1)+`)`, args...).Scan(&n)
	return err == nil && n > 0
}

// OwedFinishes lists every finish step not done yet, oldest first.
func (s *Store) OwedFinishes(ctx context.Context) ([]Finish, error) {
	var owed []Finish
	err := eachRow(ctx, s.db, `SELECT revision, service, payload FROM finishes WHERE done = 0 ORDER BY revision, service`, nil,
		func(rows *sql.Rows) error {
			var f Finish
			err := rows.Scan(&f.Revision, &f.Service, &f.Payload)
			owed = append(owed, f)
			return err
		})
	return owed, err
}

// FinishDone marks a finish step done.
func (s *Store) FinishDone(ctx context.Context, rev int64, service string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE finishes SET done = 1 WHERE revision = ? AND service = ?`, rev, service)
	return err
}
