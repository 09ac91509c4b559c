package sessions

import (
	"database/sql"
	"regexp"
	"strings"
	"testing"
)

// fullScan matches an EXPLAIN QUERY PLAN step that reads the whole nodes
// table (under any alias) without an index.
var fullScan = regexp.MustCompile(`^SCAN (nodes|n|p)$`)

// TestQueryPlan_HotQueriesUseIndexes guards the queries the writer and the
// idle watcher run on every turn: none may scan the nodes table.
func TestQueryPlan_HotQueriesUseIndexes(t *testing.T) {
	s := forked(t)
	cases := []struct {
		name  string
		query string
		args  []any
		want  string // an index the plan must use
	}{
		{"pending_turns", pendingTurnsQuery, []any{sql.Named("tip", 5), sql.Named("ws", "w")}, "INTEGER PRIMARY KEY"},
		{"pending_sessions", pendingSessionsQuery, []any{sql.Named("ws", "w")}, "nodes_tips"},
		{"branches", branchesQuery, []any{DefaultProvider, "s1"}, "nodes_tips"},
		{"node_by_key", nodeByKeyQuery, []any{DefaultProvider, "s1", "a1"}, "sqlite_autoindex_nodes_1"},
		{"node_seq", nodeSeqQuery, []any{DefaultProvider, "s1", "a1"}, "sqlite_autoindex_nodes_1"},
		{"nodes_in_session", nodesInSessionQuery("?2, ?3"), []any{1, "a1", "b1"}, "sqlite_autoindex_nodes_1"},
		{"mark_written", markWrittenQuery, []any{"w", 3}, "INTEGER PRIMARY KEY"},
		{"parent_seq", parentSeqQuery, []any{1, "a1"}, "sqlite_autoindex_nodes_1"},
		{"thread_taken", threadTakenQuery, []any{DefaultProvider, "s1"}, "sqlite_autoindex_sessions_2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := s.db.Query("EXPLAIN QUERY PLAN "+tc.query, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var plan []string
			for rows.Next() {
				var id, parent, unused int
				var detail string
				if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, detail)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(plan, "\n")
			for _, step := range plan {
				if fullScan.MatchString(step) {
					t.Errorf("full scan %q in plan:\n%s", step, joined)
				}
			}
			if !strings.Contains(joined, tc.want) {
				t.Errorf("plan does not use %s:\n%s", tc.want, joined)
			}
		})
	}
}
