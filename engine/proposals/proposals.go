package proposals

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/passlog"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace"
	"scriptorium/workspace/topic"
)

// Proposal is one pass or writer batch that waits for the owner.
type Proposal struct {
	ID           string            `json:"id"`
	Kind         string            `json:"kind"` // "sleep", "write" or "update" (Submit)
	Time         string            `json:"time"`
	BaseRevision int64             `json:"base_revision"`
	Changed      []result.FileDiff `json:"changed"`
	// ProposedBy is the tier that submitted an "update" proposal (Submit).
	ProposedBy string `json:"proposed_by,omitempty"`
	// Model is the model that computed a sleep pass.
	Model string `json:"model,omitempty"`
	// Files holds every changed topic file's bytes before and after, the
	// proposal proper: accept rebases them onto the current files.
	Files map[string]File `json:"files"`
}

// File is one topic file of a proposal; nil means it does not exist.
type File struct {
	Before []byte `json:"before"`
	After  []byte `json:"after"`
}

// Summary is a proposal as `proposals` lists it (SPEC shape).
type Summary struct {
	ID           string            `json:"id"`
	Kind         string            `json:"kind"`
	Time         string            `json:"time"`
	BaseRevision int64             `json:"base_revision"`
	Changed      []result.FileDiff `json:"changed"`
	ProposedBy   string            `json:"proposed_by,omitempty"`
}

// Summary drops the file bytes.
func (p Proposal) Summary() Summary {
	return Summary{ID: p.ID, Kind: p.Kind, Time: p.Time, BaseRevision: p.BaseRevision, Changed: p.Changed, ProposedBy: p.ProposedBy}
}

// dir is where proposals live: beside the index and state.db, never under
// topics/ (a proposal is not memory until accepted).
func dir(e *engine.Engine) string { return workspace.MetaPath(e.Root(), workspace.ProposalsName) }

// FromPlan turns a validated plan into a proposal of kind against view v.
// Only topic files are proposed: archives are evidence, appended when the
// turns are read, never waiting for review.
func FromPlan(e *engine.Engine, kind, model string, v *engine.View, plan *engine.Plan) Proposal {
	p := Proposal{Kind: kind, Time: e.Now().UTC().Format(time.RFC3339), BaseRevision: v.Revision,
		Model: model, Changed: []result.FileDiff{}, Files: map[string]File{}}
	for _, path := range plan.Changed {
		if !strings.HasPrefix(path, "topics/") {
			continue
		}
		before, after := plan.Bytes(path)
		p.Files[path] = File{Before: before, After: after}
		p.Changed = append(p.Changed, result.FileDiff{Path: path, Diff: plan.Diff(path)})
	}
	p.ID = newID(e.Now(), p)
	return p
}

// newID sorts by time and names the content: the time to the second, then
// a hash of the kind, base and files, so the same pass proposed twice in a
// second is one proposal and a demo is the same on every run.
func newID(now time.Time, p Proposal) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", p.Kind, p.BaseRevision)
	for _, c := range p.Changed {
		f := p.Files[c.Path]
		fmt.Fprintf(h, "%s\x00%d:%s\x00%d:%s\x00", c.Path, len(f.Before), f.Before, len(f.After), f.After)
	}
	return "p-" + now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(h.Sum(nil))[:6]
}

// Save stores a proposal atomically. A proposal without files is not
// stored: there is nothing to decide.
func Save(e *engine.Engine, p Proposal) error {
	if err := e.Authorize(trust.OpPropose); err != nil {
		return err
	}
	return store(e, p)
}

// store is Save once the caller's right to store p is checked.
func store(e *engine.Engine, p Proposal) error {
	if len(p.Files) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir(e), workspace.PrivateDir); err != nil {
		return errcode.Wrap(errcode.IO, err, "create %s", dir(e))
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "encode proposal")
	}
	if err := workspace.WriteFileAtomic(e.RuntimeDir(), filepath.Join(dir(e), p.ID+".json"), append(data, '\n')); err != nil {
		return errcode.Wrap(errcode.IO, err, "store proposal %s", p.ID)
	}
	return nil
}

// List returns every stored proposal, oldest first (the order to review
// them in).
func List(e *engine.Engine) ([]Proposal, error) {
	if err := e.Authorize(trust.OpHistory); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir(e))
	if errors.Is(err, fs.ErrNotExist) {
		return []Proposal{}, nil
	}
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "read proposals")
	}
	out := []Proposal{}
	for _, ent := range entries {
		id, ok := strings.CutSuffix(ent.Name(), ".json")
		if !ok || !validID(id) {
			continue
		}
		p, err := read(e, id)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func validID(id string) bool {
	if !strings.HasPrefix(id, "p-") || len(id) > 64 {
		return false
	}
	for _, r := range id[2:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r == '-') {
			return false
		}
	}
	return true
}

func read(e *engine.Engine, id string) (Proposal, error) {
	var p Proposal
	if !validID(id) {
		return p, errcode.Errorf(errcode.InvalidArgument, "%q is not a proposal id (see `proposals`)", id)
	}
	data, err := os.ReadFile(filepath.Join(dir(e), id+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return p, errcode.Errorf(errcode.NotFound, "no proposal %s (see `proposals`)", id)
	}
	if err != nil {
		return p, errcode.Wrap(errcode.IO, err, "read proposal %s", id)
	}
	if err := json.Unmarshal(data, &p); err != nil || p.ID != id {
		return p, errcode.Errorf(errcode.IO, "proposal %s is damaged; decline it", id)
	}
	return p, nil
}

// AcceptResult is what Accept installed.
type AcceptResult struct {
	ID       string            `json:"id"`
	Revision int64             `json:"revision"`
	Changed  []result.FileDiff `json:"changed"`
	// Remaining lists the files of the proposal still waiting (after a
	// partial accept); empty when the proposal is done.
	Remaining []string `json:"remaining"`
	// Rebased is true when the base revision was stale and the files were
	// merged onto the current ones.
	Rebased bool `json:"rebased"`
}

// Accept installs a proposal, or only the files in only, as a normal
// transaction of the proposal's kind. A stale base revision is rebased
// file by file (topic.Merge3) when no block conflicts; otherwise it is
// refused with CONFLICT naming the blocks, and nothing changes. An
// accepted sleep proposal is recorded as a sleep pass.
func Accept(ctx context.Context, e *engine.Engine, id string, only []string) (AcceptResult, error) {
	res := AcceptResult{ID: id, Changed: []result.FileDiff{}, Remaining: []string{}}
	if err := e.Authorize(trust.OpPropose); err != nil {
		return res, err
	}
	err := e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		p, err := read(e, id)
		if err != nil {
			return err
		}
		chosen, err := choose(p, only)
		if err != nil {
			return err
		}
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		res.Rebased = v.Revision != p.BaseRevision
		edits, err := rebase(v, p, chosen)
		if err != nil {
			return err
		}
		ch := engine.Change{Kind: p.Kind, Actor: trust.Owner, Edits: edits}
		plan, err := e.Plan(v, ch)
		if err != nil {
			return err
		}
		if len(plan.Changed) > 0 {
			out, err := tx.Install(ctx, ch)
			if err != nil {
				return err
			}
			res.Revision = out.Revision
			for _, path := range plan.Changed {
				res.Changed = append(res.Changed, result.FileDiff{Path: path, Diff: plan.Diff(path)})
			}
		}
		if p.Kind == "sleep" && len(plan.Changed) > 0 {
			rep := result.PassReport{Model: p.Model, Revision: res.Revision, Changed: res.Changed, CoreGap: e.CoreExcluded(plan.After)}
			if err := passlog.Record(ctx, e, &rep); err != nil {
				return err
			}
		}
		res.Remaining, err = drop(e, p, chosen)
		return err
	})
	return res, err
}

// Decline drops a proposal, or only the files in only, and records the
// decision in state.db's events (kind proposal_declined).
func Decline(ctx context.Context, e *engine.Engine, id string, only []string) ([]string, error) {
	if err := e.Authorize(trust.OpPropose); err != nil {
		return nil, err
	}
	var remaining []string
	err := e.Locked(ctx, !e.Options().Interactive, func(*engine.Tx) error {
		p, err := read(e, id)
		if err != nil {
			return err
		}
		chosen, err := choose(p, only)
		if err != nil {
			return err
		}
		if err := recordDecline(ctx, e, map[string]any{"id": p.ID, "kind": p.Kind,
			"base_revision": p.BaseRevision, "paths": chosen, "actor": string(trust.Owner)}); err != nil {
			return err
		}
		remaining, err = drop(e, p, chosen)
		return err
	})
	return remaining, err
}

// choose resolves --only against the proposal's files (all when empty).
func choose(p Proposal, only []string) ([]string, error) {
	var all []string
	for path := range p.Files {
		all = append(all, path)
	}
	sort.Strings(all)
	if len(only) == 0 {
		return all, nil
	}
	for _, path := range only {
		if _, ok := p.Files[path]; !ok {
			return nil, errcode.Errorf(errcode.InvalidArgument, "proposal %s does not change %s (it changes %s)", p.ID, path, strings.Join(all, ", "))
		}
	}
	return only, nil
}

// rebase computes the edits that bring the chosen files from the current
// view to the proposal's result.
func rebase(v *engine.View, p Proposal, chosen []string) ([]result.Edit, error) {
	var edits []result.Edit
	var bad []errcode.Violation
	for _, path := range chosen {
		f := p.Files[path]
		cur, _, ok := v.Topic(path)
		if !ok {
			cur = nil
		}
		merged, conflicts := topic.Merge3(f.Before, cur, f.After)
		for _, c := range conflicts {
			bad = append(bad, errcode.Violation{Code: "proposal_conflict", Path: path, Line: c.Line,
				Message: fmt.Sprintf("%s changed since the proposal's base revision %d", c.Key, p.BaseRevision)})
		}
		if ed, ok := result.FileEdit(path, cur, merged); ok && len(conflicts) == 0 {
			edits = append(edits, ed)
		}
	}
	if len(bad) > 0 {
		return nil, &errcode.Error{Code: errcode.Conflict, Violations: bad,
			Message: fmt.Sprintf("proposal %s conflicts with changes made since revision %d in %d block(s); nothing was changed (decline it, or run the pass again)", p.ID, p.BaseRevision, len(bad))}
	}
	return edits, nil
}

// drop removes the chosen files from the proposal, deleting it when none
// is left, and returns the files still waiting.
func drop(e *engine.Engine, p Proposal, chosen []string) ([]string, error) {
	for _, path := range chosen {
		delete(p.Files, path)
	}
	p.Changed = slices.DeleteFunc(p.Changed, func(d result.FileDiff) bool { return slices.Contains(chosen, d.Path) })
	remaining := []string{}
	for path := range p.Files {
		remaining = append(remaining, path)
	}
	sort.Strings(remaining)
	if len(remaining) == 0 {
		if err := os.Remove(filepath.Join(dir(e), p.ID+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, errcode.Wrap(errcode.IO, err, "remove proposal %s", p.ID)
		}
		return remaining, nil
	}
	return remaining, Save(e, p)
}

// recordDecline appends the owner's decline to state.db's events (kind
// proposal_declined), which the audit trail reads: it is no install.
func recordDecline(ctx context.Context, e *engine.Engine, data map[string]any) error {
	doc, err := json.Marshal(data)
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "record proposal_declined")
	}
	if err := e.Records().AddEvent(ctx, e.Now().UTC().Format(time.RFC3339), "proposal_declined", doc); err != nil {
		return errcode.As(err)
	}
	return nil
}
