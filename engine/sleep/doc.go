// Package sleep is the reorganiser pass (SPEC §9): the offline organiser
// merges duplicate blocks, splits oversized topic files and repairs links;
// a model pass asks a model for a transaction. Either way a pass installs
// through the engine only if it loses no citation and leaves pending
// blocks alone, and every pass is recorded, also an empty or rejected one.
package sleep
