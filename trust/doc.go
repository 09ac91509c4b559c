// Package trust owns authority tiers, the one gate table every engine operation consults, source and block trust resolution, and the promotion ledger.
package trust
