package sessions

import (
	"context"
	"database/sql"
	"fmt"

	"scriptorium/workspace/archive"
)

// schemaV2 is the schema of version 2: a session is (provider, id) and a
// node is (session, id), so two chats that both number a message 1 are two
// sessions with a node 1 each.
const schemaV2 = `CREATE TABLE sessions (
	seq        INTEGER PRIMARY KEY,
	provider   TEXT NOT NULL,
	id         TEXT NOT NULL,
	thread     TEXT NOT NULL, -- the archive thread name the writer uses, decided at import
	thread_key TEXT NOT NULL, -- archive.FoldKey(thread): equal keys would share one file
	first_time TEXT NOT NULL, -- RFC 3339 UTC, fixed width: sorts as text
	last_time  TEXT NOT NULL,
	UNIQUE (provider, id),
	UNIQUE (provider, thread_key)
);
CREATE TABLE nodes (
	seq             INTEGER PRIMARY KEY, -- insertion order; a parent always has a smaller seq
	session         INTEGER NOT NULL REFERENCES sessions(seq),
	id              TEXT NOT NULL,
	parent          TEXT,                -- id of the parent in the same session; NULL for a root
	parent_seq      INTEGER,             -- the parent's seq, for fast walks
	role            TEXT NOT NULL,
	content         TEXT NOT NULL,
	speaker_id      TEXT NOT NULL DEFAULT '',
	speaker_display TEXT NOT NULL DEFAULT '',
	time            TEXT NOT NULL,
	tier            TEXT NOT NULL CHECK (tier IN ('owner', 'paired', 'unpaired')),
	grp             INTEGER NOT NULL DEFAULT 0,
	synthetic       INTEGER NOT NULL DEFAULT 0,
	metadata        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
	has_children    INTEGER NOT NULL DEFAULT 0,
	-- The written marker, extracted once per write so that walks do not
	-- parse JSON on every step.
	written         TEXT GENERATED ALWAYS AS (json_extract(metadata, '$.memory_written_scriptorium')) STORED,
	UNIQUE (session, id),
	-- Parents are stored first, which makes every walk towards the root
	-- finite even if a bug tried to store a loop.
	CHECK (parent_seq < seq),
	CHECK ((parent IS NULL) = (parent_seq IS NULL))
);`

// schemaV2Late is created after the rows are copied: the tip index and the
// trigger that maintains has_children (copied rows carry it already).
const schemaV2Late = `CREATE INDEX nodes_tips ON nodes(session, seq) WHERE has_children = 0;
CREATE TRIGGER nodes_has_children AFTER INSERT ON nodes WHEN NEW.parent_seq IS NOT NULL
BEGIN
	UPDATE nodes SET has_children = 1 WHERE seq = NEW.parent_seq AND has_children = 0;
END;`

// migrateNodeKeys moves version 1 (node ids unique across the file) to
// version 2 (node ids unique per session). Every node keeps its seq, so
// parent_seq links stay valid; metadata, and with it every written marker,
// is copied as it is. Each session gets its thread name: the session id
// when the old writer could store it (an archive may already hold it under
// that name), otherwise the name a new session would get. Stored display
// names are normalised the way import now does, so that importing the same
// file again still finds its nodes unchanged.
func migrateNodeKeys(ctx context.Context, tx *sql.Tx) error {
	var before int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM nodes`).Scan(&before); err != nil {
		return err
	}
	for _, q := range []string{
		`DROP TRIGGER nodes_has_children`,
		`DROP INDEX nodes_session`,
		`DROP INDEX nodes_tips`,
		`ALTER TABLE nodes RENAME TO nodes_v1`,
		`ALTER TABLE sessions RENAME TO sessions_v1`,
		schemaV2,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}

	// Oldest session first, so that of two names that fold together the
	// one the writer met first keeps its name.
	type oldSession struct{ id, provider, first, last string }
	rows, err := tx.QueryContext(ctx, `SELECT s.id, s.provider, s.first_time, s.last_time FROM sessions_v1 s
		LEFT JOIN (SELECT session, min(seq) AS first_seq FROM nodes_v1 GROUP BY session) f ON f.session = s.id
		ORDER BY f.first_seq, s.id`)
	if err != nil {
		return err
	}
	var old []oldSession
	for rows.Next() {
		var o oldSession
		if err := rows.Scan(&o.id, &o.provider, &o.first, &o.last); err != nil {
			rows.Close()
			return err
		}
		old = append(old, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	taken := map[string]bool{} // provider + "\x00" + FoldKey(thread)
	for _, o := range old {
		var cands []string
		if legacyThread(o.provider, o.id) {
			cands = append(cands, o.id)
		}
		cands = append(cands, threadCandidates(o.id)...)
		thread := ""
		for _, c := range cands {
			if k := o.provider + "\x00" + archive.FoldKey(c); !taken[k] {
				taken[k], thread = true, c
				break
			}
		}
		if thread == "" {
			return fmt.Errorf("session %s: no free thread name", SessionKey{o.provider, o.id})
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions(provider, id, thread, thread_key, first_time, last_time)
			VALUES (?, ?, ?, ?, ?, ?)`, o.provider, o.id, thread, archive.FoldKey(thread), o.first, o.last); err != nil {
			return fmt.Errorf("copy session %s: %w", SessionKey{o.provider, o.id}, err)
		}
	}

	if _, err := tx.ExecContext(ctx, `INSERT INTO nodes(seq, session, id, parent, parent_seq, role, content,
			speaker_id, speaker_display, time, tier, grp, synthetic, metadata, has_children)
		SELECT n.seq, s.seq, n.id, n.parent, n.parent_seq, n.role, n.content,
			n.speaker_id, n.speaker_display, n.time, n.tier, n.grp, n.synthetic, n.metadata, n.has_children
		FROM nodes_v1 n JOIN sessions_v1 o ON o.id = n.session JOIN sessions s ON s.provider = o.provider AND s.id = o.id
		ORDER BY n.seq`); err != nil {
		return fmt.Errorf("copy nodes: %w", err)
	}
	var after int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM nodes`).Scan(&after); err != nil {
		return err
	}
	if after != before {
		return fmt.Errorf("copied %d of %d nodes", after, before)
	}
	if err := normaliseDisplays(ctx, tx); err != nil {
		return err
	}
	for _, q := range []string{`DROP TABLE nodes_v1`, `DROP TABLE sessions_v1`, schemaV2Late} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	// A parent that was in another session (version 1 never stored one)
	// would now resolve to nothing: make sure none does.
	var strays int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM nodes c JOIN nodes p ON p.seq = c.parent_seq
		WHERE p.session <> c.session OR p.id <> c.parent`).Scan(&strays); err != nil {
		return err
	}
	if strays > 0 {
		return fmt.Errorf("%d node(s) have a parent outside their session", strays)
	}
	return nil
}

// legacyThread reports whether the version-1 writer could archive session
// under its own name, so that its archive may exist under that name.
func legacyThread(provider, session string) bool {
	return archive.ValidSegment(session) == nil &&
		archive.ValidateSourceID(provider+"/"+session+"/x") == nil
}

// normaliseDisplays rewrites stored display names the way import now
// normalises them (archive.NormalizeLabelPart).
func normaliseDisplays(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT seq, speaker_display FROM nodes WHERE speaker_display <> ''`)
	if err != nil {
		return err
	}
	type fix struct {
		seq     int64
		display string
	}
	var fixes []fix
	for rows.Next() {
		var f fix
		if err := rows.Scan(&f.seq, &f.display); err != nil {
			rows.Close()
			return err
		}
		if n := archive.NormalizeLabelPart(f.display); n != f.display {
			fixes = append(fixes, fix{f.seq, n})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, f := range fixes {
		if _, err := tx.ExecContext(ctx, `UPDATE nodes SET speaker_display = ? WHERE seq = ?`, f.display, f.seq); err != nil {
			return fmt.Errorf("normalise display name of node %d: %w", f.seq, err)
		}
	}
	return nil
}
