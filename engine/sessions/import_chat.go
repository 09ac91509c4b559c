package sessions

import (
	"context"
	"database/sql"
	"fmt"
)

// The chat policy of an import (ImportBatch.AddChatNodes): a stored node
// keeps what was stored, and only its tier may follow the import.

// retierNode is a stored node that takes a new tier.
type retierNode struct {
	seq  int64
	tier string
}

// keepStored settles a chat turn whose node is stored: the stored node
// stays as it is, except for a tier the owner changed on a node the writer
// has not archived yet (one stored before this batch). A turn equal to its
// node is a duplicate; any other difference is counted as changed.
func (plan *importPlan) keepStored(old storedNode, n Node, lastSeq int64) {
	tier := n.Tier
	tierMoves := old.Tier != tier
	canMove := tierMoves && old.Written == "" && old.seq <= lastSeq
	n.Tier = old.Tier // compared without the tier: it is settled here
	same := differingField(old.Node, n) == ""
	switch {
	case canMove:
		plan.retier = append(plan.retier, retierNode{old.seq, tier})
		if !same {
			plan.changed++
		}
	case same && !tierMoves:
		plan.duplicates++
	default:
		plan.changed++
		if tierMoves && old.Written != "" {
			plan.tierKept++
		}
	}
}

// retier gives stored nodes their new tier.
func retier(ctx context.Context, tx *sql.Tx, nodes []retierNode) error {
	if len(nodes) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `UPDATE nodes SET tier = ? WHERE seq = ?`)
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	defer stmt.Close()
	for _, n := range nodes {
		if _, err := stmt.ExecContext(ctx, n.tier, n.seq); err != nil {
			return fmt.Errorf("store the tier of node %d: %w", n.seq, err)
		}
	}
	return nil
}
