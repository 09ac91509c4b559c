package engine

import "scriptorium/engine/records"

// Records is the workspace's state.db (engine/records): its history, the
// promotion ledger and rejections, for the services that read or append
// them (revert's recorded topic bytes, the audit trail, rejection).
func (e *Engine) Records() *records.Store { return e.rec }
