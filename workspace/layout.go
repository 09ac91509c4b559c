package workspace

import (
	"path"
	"path/filepath"
)

// The layout of MetaDir, spelled here once: every other package asks for
// these paths instead of joining ".scriptorium/…" itself. Everything in it
// but StateDBName is a cache or scratch, rebuilt when missing.
const (
	StateDBName    = "state.db"       // install history, the promotion ledger, rejections (engine/records)
	IndexName      = "index"          // the bleve index (engine/index)
	ManifestName   = "manifest.jsonl" // per-file signatures and summaries (workspace/manifest)
	EmbeddingsName = "embeddings.db"  // the vector cache (engine/vectors)
	ProposalsName  = "proposals"      // waiting proposals (engine/proposals)
	DaemonLogName  = "daemon.log"     // the daemon's log
	RuntimeName    = runtimeName      // temp files, status files, the socket
	IDName         = idName           // the workspace id
	RevisionName   = revisionName     // the revision counter
	WriteLockName  = lockName         // the write lock (flock)
	LockHolderName = lockHolderName   // inside RuntimeName: who holds the write lock
	StagePrefix    = "tx-"            // an install's stage directory (inside StageDir) starts so
)

// CoreQueueName holds the core.md candidates a write filed while another
// core proposal was waiting (engine/writer): a small queue, not a cache;
// losing it only loses those proposals.
const CoreQueueName = "core-queue.json"

// MetaPath is root/.scriptorium/name… for the workspace at root.
func MetaPath(root string, name ...string) string {
	return filepath.Join(append([]string{root, MetaDir}, name...)...)
}

// RuntimePath is root/.scriptorium/runtime/name for the workspace at root.
func RuntimePath(root, name string) string { return MetaPath(root, runtimeName, name) }

// MetaRel is the slash-separated path of name… in MetaDir relative to the
// workspace (".scriptorium/index"): how previews and messages name it.
func MetaRel(name ...string) string { return path.Join(append([]string{MetaDir}, name...)...) }
