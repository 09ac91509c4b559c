// Package trust owns authority tiers, the one gate table every engine operation consults, source and block trust resolution, and the promotion ledger's and rejection log's rows (state.db, where engine/records keeps them).
package trust
