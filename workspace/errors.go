package workspace

import "errors"

// Sentinel errors. Callers match them with errors.Is; the package always
// wraps them with the operation and path that failed.
var (
	// ErrLockBusy is returned when the write lock could not be acquired
	// before the wait ended: after BackgroundLockWait in LockBackground mode,
	// or when the context is done in LockInteractive mode. It is retryable.
	ErrLockBusy = errors.New("write lock busy")

	// ErrUnsafeName is returned when a profile, provider or thread name is
	// not a safe single path segment (empty, ".", "..", or containing "/",
	// "\", "..", NUL, control characters or invalid UTF-8).
	ErrUnsafeName = errors.New("unsafe name")

	// ErrConflictingFlags is returned by ResolveStateDir when both --state
	// and --profile are given: they name two different state directories.
	ErrConflictingFlags = errors.New("--state and --profile cannot be used together")

	// ErrNoHome is returned when the state directory defaults to the home
	// directory but no home directory is known.
	ErrNoHome = errors.New("home directory unknown")

	// ErrCorruptState is returned when .scriptorium/workspace-id or
	// .scriptorium/revision exists but does not hold a well-formed value.
	ErrCorruptState = errors.New("corrupt workspace state")

	// ErrInvalidRevision is returned by SetRevision for a negative revision.
	ErrInvalidRevision = errors.New("invalid revision")

	// ErrInvalidPath is returned when a workspace-relative path is absolute,
	// escapes the workspace or names a tree other than the one required
	// (ListFiles lists only topics/ and sources/).
	ErrInvalidPath = errors.New("invalid workspace path")
)
