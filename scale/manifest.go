package scale

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// Version names what the generators write. Bump it with any change to
// their output, so caches keyed by it (the benchmarks', the scale
// script's) are never reused stale.
const Version = 1

// DefaultSeed is the seed of the benchmark workspaces: the same seed and N
// always give the same bytes.
const DefaultSeed uint64 = 0x5c0a7e

// Manifest describes a generated workspace: what benchmarks and the scale
// script need to know about it without re-reading it.
type Manifest struct {
	Version    int `json:"version"`
	Records    int `json:"records"`
	Pending    int `json:"pending"`
	Threads    int `json:"threads"`
	TopicFiles int `json:"topic_files"`
	Blocks     int `json:"blocks"`
	Bytes      int `json:"bytes"`
	// Queries are search texts drawn from the generator's vocabulary.
	Queries []string `json:"queries"`
	// Filter is a speaker+path+date filter that keeps a realistic slice of
	// the corpus (one busy speaker of one provider over a year).
	Filter Filter `json:"filter"`
	// EditTopics are small topic files an install may append to.
	EditTopics []string `json:"edit_topics"`
	// Cites are trusted sources a new block may cite.
	Cites []Cite `json:"cites"`
}

// Filter is a search filter as the CLI's flags take it.
type Filter struct {
	Speaker string `json:"speaker"`
	Path    string `json:"path"`
	Since   string `json:"since"`
	Until   string `json:"until"`
}

// Cite is a trusted source record of a generated workspace.
type Cite struct {
	SourceID string `json:"source_id"`
	Archive  string `json:"archive"` // workspace path of the archive
	Date     string `json:"date"`
}

// ErrStale is returned by ReadManifest when the manifest was written by
// another Version of the generator.
var ErrStale = errors.New("scale: manifest of another generator version")

// WriteManifest writes m as indented JSON to path.
func WriteManifest(path string, m Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

// ReadManifest reads a manifest written by WriteManifest; it returns
// ErrStale if another Version wrote it.
func ReadManifest(path string) (Manifest, error) {
	var m Manifest
	data, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("read manifest %s: %w", path, err)
	}
	if m.Version != Version {
		return m, ErrStale
	}
	return m, nil
}
