package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"scriptorium/engine/model"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// DefaultSplitTokens is the size, in o200k_base tokens, above which the
// offline sleep pass splits a topic file at its "## " sections.
const DefaultSplitTokens = 1500

// SleepOptions configures one sleep pass. The zero value runs the pass the
// configuration asks for (the built-in offline organiser unless a model
// provider is configured) as an interactive caller.
type SleepOptions struct {
	// Model, when set, is asked for the pass instead of the configured
	// provider. Tests inject fakes here.
	Model model.Model
	// ModelName selects the model by name, as `sleep --model` does:
	// "offline" forces the built-in organiser, "PROVIDER:NAME" picks a
	// provider and model, a bare NAME picks a model of the configured
	// provider. Empty means the configuration. Ignored when Model is set.
	ModelName string
	// Background makes the pass give up after 1 s when another writer
	// holds the write lock (LOCK_BUSY, retryable), as the nightly pass
	// under `daemon` does. Otherwise the pass waits like any interactive
	// writer.
	Background bool
	// SplitTokens is the offline organiser's split threshold; 0 means
	// DefaultSplitTokens.
	SplitTokens int
	// MaxTokens bounds the model's answer; 0 means the provider default.
	MaxTokens int
}

// Sleep runs one reorganiser pass (SPEC §9) through the normal transaction
// and records its report in state.db, also when nothing changed and when
// the pass was rejected. A rejected pass changes nothing and returns the
// reason as a REJECTED (or MODEL_*) error; its report row says why.
//
// The offline organiser merges exact and near-duplicate blocks, splits
// oversized files at their "## " sections and repairs links to blocks that
// moved. A model pass asks the model for a transaction and installs it only
// if it breaks no rule. Either way a pass never loses a citation and never
// touches a pending block.
func (e *Engine) Sleep(ctx context.Context, opts SleepOptions) (PassReport, error) {
	if err := e.gate(trust.OpSleep); err != nil {
		return PassReport{}, err
	}
	m, err := e.sleepModel(opts)
	if err != nil {
		return PassReport{}, err
	}
	if m == nil {
		return e.sleepOffline(ctx, opts)
	}
	return e.sleepWithModel(ctx, m, opts)
}

// Passes lists every recorded sleep pass, newest first, for the passes pane.
func (e *Engine) Passes(ctx context.Context) ([]PassReport, error) {
	if err := e.gate(trust.OpHistory); err != nil {
		return nil, err
	}
	ps, err := e.passes(ctx)
	if err != nil {
		return nil, err
	}
	if ps == nil {
		ps = []PassReport{}
	}
	return ps, nil
}

// Summary is the pass in one line, for logs and the CLI: its number and
// model, then "no changes", the files it changed, or why it was rejected.
func (r PassReport) Summary() string {
	head := fmt.Sprintf("sleep pass #%d (%s)", r.Pass, r.Model)
	if r.Error != "" {
		return head + ": rejected, nothing changed: " + flattenSpace(r.Error)
	}
	if len(r.Changed) == 0 {
		return head + ": no changes"
	}
	paths := make([]string, len(r.Changed))
	for i, c := range r.Changed {
		paths[i] = c.Path
	}
	return fmt.Sprintf("%s: revision %d, %d file(s) changed: %s", head, r.Revision, len(r.Changed), strings.Join(paths, ", "))
}

// sleepOffline runs the built-in organiser entirely under the write lock:
// it reads, plans and installs against one consistent workspace.
func (e *Engine) sleepOffline(ctx context.Context, opts SleepOptions) (PassReport, error) {
	release, err := e.lock(ctx, opts.Background)
	if err != nil {
		return PassReport{}, err
	}
	defer release()
	before, err := e.snapshot(ctx)
	if err != nil {
		return PassReport{}, err
	}
	split := opts.SplitTokens
	if split <= 0 {
		split = DefaultSplitTokens
	}
	org := newOrganiser(before, split, e.checkTopicPath)
	edits := org.run()
	rep := PassReport{Model: OfflineModelName}
	return e.finishPass(ctx, before, edits, org.redirect, rep)
}

// sleepWithModel asks the model without holding the write lock (an answer
// can take minutes, and writers must not wait that long), then installs
// under the lock only if nobody changed the workspace in the meantime.
func (e *Engine) sleepWithModel(ctx context.Context, m model.Model, opts SleepOptions) (PassReport, error) {
	rep := PassReport{Model: m.Name()}
	release, err := e.lock(ctx, opts.Background)
	if err != nil {
		return PassReport{}, err
	}
	rev, err := e.ws.Revision()
	if err != nil {
		release()
		return PassReport{}, Wrap(CodeIO, err, "read revision")
	}
	seen, err := e.snapshot(ctx)
	release()
	if err != nil {
		return PassReport{}, err
	}
	split := opts.SplitTokens
	if split <= 0 {
		split = DefaultSplitTokens
	}
	req := model.Request{System: sleepInstructions, Purpose: "sleep", MaxTokens: opts.MaxTokens,
		Messages: []model.Message{{Role: "user", Content: e.sleepPrompt(seen, rev, split)}}}
	resp, err := m.Complete(ctx, req)
	if err != nil {
		return e.failPass(ctx, seen, rep, sleepModelError(err))
	}
	rep.TokensIn, rep.TokensOut = resp.TokensIn, resp.TokensOut
	edits, perr := parseSleepAnswer(resp)
	if perr == nil {
		perr = seen.checkWithheld(edits)
	}
	if perr != nil {
		return e.failPass(ctx, seen, rep, perr)
	}

	release, err = e.lock(ctx, opts.Background)
	if err != nil {
		return PassReport{}, err
	}
	defer release()
	now, err := e.ws.Revision()
	if err != nil {
		return PassReport{}, Wrap(CodeIO, err, "read revision")
	}
	if now != rev {
		return e.failPass(ctx, seen, rep, Errorf(CodeConflict,
			"the workspace changed (revision %d → %d) while the model was answering; nothing was changed, run the pass again", rev, now))
	}
	before, err := e.snapshot(ctx)
	if err != nil {
		return PassReport{}, err
	}
	return e.finishPass(ctx, before, edits, nil, rep)
}

// finishPass validates the pass's edits against the whole would-be
// workspace and the sleep rules, installs them, and records the report.
// The caller holds the write lock. redirect maps block ids the offline
// organiser merged away to the ids that absorbed them; nil for a model
// pass, whose merges are not declared.
func (e *Engine) finishPass(ctx context.Context, before *snapshot, edits []Edit, redirect map[string]string, rep PassReport) (PassReport, error) {
	rep.Changed = []FileDiff{}
	if len(edits) == 0 {
		return e.recordEmpty(ctx, before, rep)
	}
	ch := change{kind: "sleep", actor: trust.Owner, edits: edits}
	plan, err := e.plan(before, ch)
	if err != nil {
		return e.failPass(ctx, before, rep, err)
	}
	if len(plan.order) == 0 {
		return e.recordEmpty(ctx, before, rep)
	}
	after := before.with(plan)
	if bad := sleepRuleViolations(before, after, redirect); len(bad) > 0 {
		return e.failPass(ctx, before, rep, &Error{Code: CodeRejected, Violations: bad,
			Message: fmt.Sprintf("sleep pass rejected: %d rule violation(s); nothing was changed", len(bad))})
	}
	res, err := e.installLocked(ctx, ch)
	if err != nil {
		return e.failPass(ctx, before, rep, err)
	}
	rep.Revision = res.Revision
	for _, p := range plan.order {
		rep.Changed = append(rep.Changed, FileDiff{Path: p, Diff: unifiedDiff(p, plan.old[p], plan.files[p])})
	}
	rep.CoreGap = e.coreGap(after)
	if err := e.recordPass(ctx, &rep); err != nil {
		return rep, err
	}
	return rep, nil
}

func (e *Engine) recordEmpty(ctx context.Context, s *snapshot, rep PassReport) (PassReport, error) {
	rep.Changed = []FileDiff{}
	rep.CoreGap = e.coreGap(s)
	if err := e.recordPass(ctx, &rep); err != nil {
		return rep, err
	}
	return rep, nil
}

// failPass records a pass that changed nothing because of cause and
// returns cause. A report that cannot be recorded is an IO failure, which
// wins because the owner would otherwise never learn of the pass.
func (e *Engine) failPass(ctx context.Context, s *snapshot, rep PassReport, cause error) (PassReport, error) {
	rep.Changed = []FileDiff{}
	rep.Revision = 0
	rep.Error = AsError(cause).Error()
	rep.CoreGap = e.coreGap(s)
	if err := e.recordPass(ctx, &rep); err != nil {
		return rep, err
	}
	return rep, cause
}

// coreGap lists the topics/core.md blocks the token budget leaves out of
// core.md: facts that exist but that no session sees.
func (e *Engine) coreGap(s *snapshot) []string {
	_, rep := e.coreRender(s)
	return nonNil(rep.Excluded)
}

// recordPass appends the report to the passes table and sets its number
// and time.
func (e *Engine) recordPass(ctx context.Context, rep *PassReport) error {
	rep.Time = e.opts.Now().UTC().Format(time.RFC3339)
	if rep.Changed == nil {
		rep.Changed = []FileDiff{}
	}
	rep.CoreGap = nonNil(rep.CoreGap)
	changed, err := json.Marshal(rep.Changed)
	if err != nil {
		return Wrap(CodeIO, err, "record sleep pass")
	}
	gap, err := json.Marshal(rep.CoreGap)
	if err != nil {
		return Wrap(CodeIO, err, "record sleep pass")
	}
	// The report must outlive a cancelled caller: the pass already ran.
	res, err := e.db.ExecContext(context.WithoutCancel(ctx), `INSERT INTO passes
		(time, model, revision, changed, tokens_in, tokens_out, error, core_gap) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		rep.Time, rep.Model, rep.Revision, string(changed), rep.TokensIn, rep.TokensOut, rep.Error, string(gap))
	if err != nil {
		return Wrap(CodeIO, err, "record sleep pass")
	}
	if id, err := res.LastInsertId(); err == nil {
		rep.Pass = id
	}
	return nil
}

// sleepRuleViolations checks what a valid transaction may still get wrong
// in a sleep pass: every source-id cited before is cited after, and every
// pending block survives with the same text and the same sources (so
// nothing is merged into, or out of, a pending block). With a redirect map
// (the offline organiser) every block id must also survive or be declared
// merged into a surviving block.
func sleepRuleViolations(before, after *snapshot, redirect map[string]string) []Violation {
	var out []Violation
	afterCited := after.citedSources()
	lost := map[string]bool{}
	for _, p := range before.topicPaths {
		for _, el := range before.topics[p].file.Elements {
			if el.Def == nil {
				continue
			}
			for _, c := range el.Def.Sources {
				if !afterCited[c.SourceID] && !lost[c.SourceID] {
					lost[c.SourceID] = true
					out = append(out, Violation{Code: "citation_lost", Path: p, Line: el.Line,
						Message: fmt.Sprintf("source %s is cited before the pass and by no footnote after it", c.SourceID)})
				}
			}
		}
	}
	afterBlocks := map[string]blockAt{}
	for _, p := range after.topicPaths {
		tf := after.topics[p]
		for _, b := range tf.file.Blocks() {
			if _, dup := afterBlocks[b.BlockID]; !dup {
				afterBlocks[b.BlockID] = blockAt{tf: tf, el: b}
			}
		}
	}
	for _, p := range before.topicPaths {
		tf := before.topics[p]
		for _, b := range tf.file.Blocks() {
			now, kept := afterBlocks[b.BlockID]
			if !before.blockTrusted(tf, b) {
				switch {
				case !kept:
					out = append(out, Violation{Code: "pending_changed", Path: p, Line: b.Line,
						Message: fmt.Sprintf("pending block ^%s was removed; pending blocks are never deleted or merged", b.BlockID)})
				case blockFingerprint(before, tf, b) != blockFingerprint(after, now.tf, now.el):
					out = append(out, Violation{Code: "pending_changed", Path: p, Line: b.Line,
						Message: fmt.Sprintf("pending block ^%s changed its text or sources; pending blocks are left alone until promoted", b.BlockID)})
				}
				continue
			}
			if redirect == nil || kept {
				continue
			}
			if to, ok := redirect[b.BlockID]; !ok || afterBlocks[to].tf == nil {
				out = append(out, Violation{Code: "block_lost", Path: p, Line: b.Line,
					Message: fmt.Sprintf("block ^%s disappeared without being merged into another block", b.BlockID)})
			}
		}
	}
	return out
}

type blockAt struct {
	tf *topicFile
	el topic.Element
}

// blockFingerprint is a block's text without footnote references plus the
// sorted source-ids it cites, so a block that moves (and whose labels are
// renamed) still compares equal.
func blockFingerprint(s *snapshot, tf *topicFile, b topic.Element) string {
	text := footnoteRefRE.ReplaceAllString(topic.BlockText(b), "")
	defs := tf.file.Definitions()
	var srcs []string
	for _, r := range b.Refs {
		if d, ok := defs[r.Label]; ok {
			for _, c := range d.Sources {
				srcs = append(srcs, c.SourceID)
			}
		}
	}
	sort.Strings(srcs)
	return text + "\x00" + strings.Join(srcs, "\x00")
}

// sleepModel returns the model a pass should ask, or nil for the built-in
// offline organiser.
func (e *Engine) sleepModel(opts SleepOptions) (model.Model, error) {
	if opts.Model != nil {
		return opts.Model, nil
	}
	c := e.cfg.Model
	cfg := model.Config{Provider: c.Provider, BaseURL: c.BaseURL, Name: c.Name, APIKeyEnv: c.APIKeyEnv}
	spec := strings.TrimSpace(opts.ModelName)
	switch {
	case spec == OfflineModelName:
		return nil, nil
	case spec == "":
		// The configuration decides; model.New reports ErrOffline for offline.
	case strings.Contains(spec, ":"):
		provider, name, _ := strings.Cut(spec, ":")
		if provider != c.Provider {
			// Another provider's endpoint and key are not the configured ones.
			cfg = model.Config{Provider: provider}
		}
		cfg.Name = name
	default:
		if c.Provider == "" || c.Provider == OfflineModelName {
			return nil, Errorf(CodeModelConfig,
				"--model %s needs a provider: set model.provider in config.toml or write --model PROVIDER:%s", spec, spec)
		}
		cfg.Name = spec
	}
	m, err := model.New(cfg, e.opts.Getenv, nil)
	if errors.Is(err, model.ErrOffline) {
		return nil, nil
	}
	if err != nil {
		return nil, sleepModelError(err)
	}
	return m, nil
}

// sleepModelError maps a provider failure onto the engine's closed set of
// codes; the model package already speaks the same MODEL_* words.
func sleepModelError(err error) *Error {
	var me *model.Error
	if errors.As(err, &me) {
		code := Code(me.Code)
		switch code {
		case CodeModelUnavailable, CodeModelAuth, CodeModelConfig, CodeModelOutputInvalid:
		default:
			code = CodeModelUnavailable
		}
		return &Error{Code: code, Message: "sleep model: " + me.Message, Err: err}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeModelUnavailable, Message: "sleep model: " + err.Error(), Err: err}
	}
	return AsError(err)
}

// parseSleepAnswer reads the model's {"edits":[…]} answer. An answer that
// is not that shape is MODEL_OUTPUT_INVALID; the edits themselves are
// judged later, against the whole workspace.
func parseSleepAnswer(resp model.Response) ([]Edit, error) {
	if resp.Truncated {
		return nil, Errorf(CodeModelOutputInvalid, "the model's answer stopped at the token limit; nothing was changed")
	}
	obj, err := model.ExtractJSONObject(resp.Text)
	if err != nil {
		return nil, sleepModelError(err)
	}
	var ans struct {
		Edits *[]Edit `json:"edits"`
	}
	if err := json.Unmarshal([]byte(obj), &ans); err != nil {
		return nil, Errorf(CodeModelOutputInvalid, "the model's answer is not {\"edits\":[…]}: %v", err)
	}
	if ans.Edits == nil {
		return nil, Errorf(CodeModelOutputInvalid, "the model's answer has no \"edits\" array")
	}
	if len(*ans.Edits) == 0 {
		return nil, nil
	}
	zero := int64(0)
	doc, err := json.Marshal(Transaction{BaseRevision: &zero, Edits: *ans.Edits})
	if err != nil {
		return nil, Errorf(CodeModelOutputInvalid, "the model's edits cannot be read: %v", err)
	}
	tx, err := ParseTransaction(doc)
	if err != nil {
		ee := AsError(err)
		return nil, &Error{Code: CodeRejected, Message: "the model's transaction is malformed: " + ee.Message, Err: err}
	}
	return tx.Edits, nil
}
