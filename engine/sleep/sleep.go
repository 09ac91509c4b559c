package sleep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/engine/model"
	"scriptorium/engine/passlog"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/errcode"
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
	// Propose stores the pass as a proposal for the owner instead of
	// installing it (`sleep --propose`, sleep.mode = "propose"); see
	// Propose.
	Propose bool
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
func Sleep(ctx context.Context, e *engine.Engine, opts SleepOptions) (result.PassReport, error) {
	if err := e.Authorize(trust.OpSleep); err != nil {
		return result.PassReport{}, err
	}
	m, err := sleepModel(e.Config(), e.Options().Getenv, opts)
	if err != nil {
		return result.PassReport{}, err
	}
	p := &pass{e: e, propose: opts.Propose}
	if m == nil {
		return p.offline(ctx, opts)
	}
	return p.withModel(ctx, m, opts)
}

// pass is one sleep pass on an open engine.
type pass struct {
	e *engine.Engine
	// propose stores the validated pass as proposal instead of installing.
	propose  bool
	proposal *proposals.Proposal
}

// Propose computes one pass against the current revision exactly as Sleep
// does (offline organiser or model, the same rules) and stores it as a
// proposal instead of installing it. A pass with nothing to change stores
// nothing and returns a proposal without files.
func Propose(ctx context.Context, e *engine.Engine, opts SleepOptions) (proposals.Proposal, error) {
	if err := e.Authorize(trust.OpPropose); err != nil {
		return proposals.Proposal{}, err
	}
	if err := e.Authorize(trust.OpSleep); err != nil {
		return proposals.Proposal{}, err
	}
	m, err := sleepModel(e.Config(), e.Options().Getenv, opts)
	if err != nil {
		return proposals.Proposal{}, err
	}
	p := &pass{e: e, propose: true}
	if m == nil {
		_, err = p.offline(ctx, opts)
	} else {
		_, err = p.withModel(ctx, m, opts)
	}
	if err != nil {
		return proposals.Proposal{}, err
	}
	if p.proposal == nil {
		return proposals.Proposal{Kind: "sleep", Changed: []result.FileDiff{}, Files: map[string]proposals.File{}}, nil
	}
	return *p.proposal, nil
}

// offline runs the built-in organiser entirely under the write lock:
// it reads, plans and installs against one consistent workspace.
func (p *pass) offline(ctx context.Context, opts SleepOptions) (rep result.PassReport, err error) {
	err = p.e.Locked(ctx, opts.Background, func(tx *engine.Tx) error {
		before, err := tx.View(ctx)
		if err != nil {
			return err
		}
		split := opts.SplitTokens
		if split <= 0 {
			split = DefaultSplitTokens
		}
		org := newOrganiser(before, split, p.e.CheckTopicPath)
		edits := org.run()
		rep, err = p.finish(ctx, tx, before, edits, org.redirect, result.PassReport{Model: config.OfflineModelName})
		return err
	})
	return rep, err
}

// withModel asks the model without holding the write lock (an answer
// can take minutes, and writers must not wait that long), then installs
// under the lock only if nobody changed the workspace in the meantime.
func (p *pass) withModel(ctx context.Context, m model.Model, opts SleepOptions) (result.PassReport, error) {
	rep := result.PassReport{Model: m.Name()}
	var seen *engine.View
	if err := p.e.Locked(ctx, opts.Background, func(tx *engine.Tx) error {
		var err error
		seen, err = tx.View(ctx)
		return err
	}); err != nil {
		return result.PassReport{}, err
	}
	split := opts.SplitTokens
	if split <= 0 {
		split = DefaultSplitTokens
	}
	req := model.Request{System: sleepInstructions, Purpose: "sleep", MaxTokens: opts.MaxTokens,
		Messages: []model.Message{{Role: "user", Content: sleepPrompt(p.e, seen, split)}}}
	resp, err := m.Complete(ctx, req)
	if err != nil {
		return p.fail(ctx, seen, rep, sleepModelError(err))
	}
	rep.TokensIn, rep.TokensOut = resp.TokensIn, resp.TokensOut
	edits, perr := parseSleepAnswer(resp)
	if perr == nil {
		perr = seen.CheckWithheld(edits)
	}
	if perr != nil {
		return p.fail(ctx, seen, rep, perr)
	}

	var out result.PassReport
	err = p.e.Locked(ctx, opts.Background, func(tx *engine.Tx) error {
		before, err := tx.View(ctx)
		if err != nil {
			return err
		}
		if before.Revision != seen.Revision {
			out, err = p.fail(ctx, seen, rep, errcode.Errorf(errcode.Conflict,
				"the workspace changed (revision %d → %d) while the model was answering; nothing was changed, run the pass again",
				seen.Revision, before.Revision))
			return err
		}
		out, err = p.finish(ctx, tx, before, edits, nil, rep)
		return err
	})
	return out, err
}

// finish validates the pass's edits against the whole would-be
// workspace and the sleep rules, installs them, and records the report.
// redirect maps block ids the offline organiser merged away to the ids
// that absorbed them; nil for a model pass, whose merges are not declared.
func (p *pass) finish(ctx context.Context, tx *engine.Tx, before *engine.View, edits []result.Edit, redirect map[string]string, rep result.PassReport) (result.PassReport, error) {
	rep.Changed = []result.FileDiff{}
	if len(edits) == 0 {
		return p.recordEmpty(ctx, before, rep)
	}
	ch := engine.Change{Kind: "sleep", Actor: trust.Owner, Edits: edits}
	plan, err := p.e.Plan(before, ch)
	if err != nil {
		return p.fail(ctx, before, rep, err)
	}
	if len(plan.Changed) == 0 {
		return p.recordEmpty(ctx, before, rep)
	}
	if bad := sleepRuleViolations(before, plan.After, redirect); len(bad) > 0 {
		return p.fail(ctx, before, rep, &errcode.Error{Code: errcode.Rejected, Violations: bad,
			Message: fmt.Sprintf("sleep pass rejected: %d rule violation(s); nothing was changed", len(bad))})
	}
	if p.propose {
		// The pass is recorded when the owner accepts it, not now.
		prop := proposals.FromPlan(p.e, "sleep", rep.Model, before, plan)
		if err := proposals.Save(p.e, prop); err != nil {
			return rep, err
		}
		p.proposal = &prop
		rep.Changed = prop.Changed
		return rep, nil
	}
	res, err := tx.Install(ctx, ch)
	if err != nil {
		return p.fail(ctx, before, rep, err)
	}
	rep.Revision = res.Revision
	for _, path := range plan.Changed {
		rep.Changed = append(rep.Changed, result.FileDiff{Path: path, Diff: plan.Diff(path)})
	}
	rep.CoreGap = p.e.CoreExcluded(plan.After)
	if err := passlog.Record(ctx, p.e, &rep); err != nil {
		return rep, err
	}
	return rep, nil
}

func (p *pass) recordEmpty(ctx context.Context, v *engine.View, rep result.PassReport) (result.PassReport, error) {
	rep.Changed = []result.FileDiff{}
	rep.CoreGap = p.e.CoreExcluded(v)
	if err := passlog.Record(ctx, p.e, &rep); err != nil {
		return rep, err
	}
	return rep, nil
}

// fail records a pass that changed nothing because of cause and returns
// cause. A report that cannot be recorded is an IO failure, which wins
// because the owner would otherwise never learn of the pass.
func (p *pass) fail(ctx context.Context, v *engine.View, rep result.PassReport, cause error) (result.PassReport, error) {
	rep.Changed = []result.FileDiff{}
	rep.Revision = 0
	rep.Error = errcode.As(cause).Error()
	rep.CoreGap = p.e.CoreExcluded(v)
	if err := passlog.Record(ctx, p.e, &rep); err != nil {
		return rep, err
	}
	return rep, cause
}

// sleepRuleViolations checks what a valid transaction may still get wrong
// in a sleep pass: every source-id cited before is cited after, and every
// pending block survives with the same text and the same sources (so
// nothing is merged into, or out of, a pending block). With a redirect map
// (the offline organiser) every block id must also survive or be declared
// merged into a surviving block.
func sleepRuleViolations(before, after *engine.View, redirect map[string]string) []errcode.Violation {
	var out []errcode.Violation
	afterCited := after.CitedSources()
	lost := map[string]bool{}
	for _, p := range before.TopicPaths() {
		_, file, _ := before.Topic(p)
		for _, el := range file.Elements {
			if el.Def == nil {
				continue
			}
			for _, c := range el.Def.Sources {
				if !afterCited[c.SourceID] && !lost[c.SourceID] {
					lost[c.SourceID] = true
					out = append(out, errcode.Violation{Code: "citation_lost", Path: p, Line: el.Line,
						Message: fmt.Sprintf("source %s is cited before the pass and by no footnote after it", c.SourceID)})
				}
			}
		}
	}
	afterBlocks := map[string]blockAt{}
	for _, p := range after.TopicPaths() {
		_, file, _ := after.Topic(p)
		for _, b := range file.Blocks() {
			if _, dup := afterBlocks[b.BlockID]; !dup {
				afterBlocks[b.BlockID] = blockAt{path: p, file: file, el: b}
			}
		}
	}
	for _, p := range before.TopicPaths() {
		_, file, _ := before.Topic(p)
		for _, b := range file.Blocks() {
			now, kept := afterBlocks[b.BlockID]
			if !before.BlockTrusted(p, b) {
				switch {
				case !kept:
					out = append(out, errcode.Violation{Code: "pending_changed", Path: p, Line: b.Line,
						Message: fmt.Sprintf("pending block ^%s was removed; pending blocks are never deleted or merged", b.BlockID)})
				case blockFingerprint(file, b) != blockFingerprint(now.file, now.el):
					out = append(out, errcode.Violation{Code: "pending_changed", Path: p, Line: b.Line,
						Message: fmt.Sprintf("pending block ^%s changed its text or sources; pending blocks are left alone until promoted", b.BlockID)})
				}
				continue
			}
			if redirect == nil || kept {
				continue
			}
			if to, ok := redirect[b.BlockID]; !ok || afterBlocks[to].file == nil {
				out = append(out, errcode.Violation{Code: "block_lost", Path: p, Line: b.Line,
					Message: fmt.Sprintf("block ^%s disappeared without being merged into another block", b.BlockID)})
			}
		}
	}
	return out
}

type blockAt struct {
	path string
	file *topic.File
	el   topic.Element
}

// blockFingerprint is a block's text without footnote references plus the
// sorted source-ids it cites, so a block that moves (and whose labels are
// renamed) still compares equal.
func blockFingerprint(f *topic.File, b topic.Element) string {
	text := footnoteRefRE.ReplaceAllString(topic.BlockText(b), "")
	defs := f.Definitions()
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
func sleepModel(conf config.Config, getenv func(string) string, opts SleepOptions) (model.Model, error) {
	if opts.Model != nil {
		return opts.Model, nil
	}
	c := conf.Model
	cfg := model.Config{Provider: c.Provider, BaseURL: c.BaseURL, Name: c.Name, APIKeyEnv: c.APIKeyEnv}
	spec := strings.TrimSpace(opts.ModelName)
	switch {
	case spec == config.OfflineModelName:
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
		if c.Provider == "" || c.Provider == config.OfflineModelName {
			return nil, errcode.Errorf(errcode.ModelConfig,
				"--model %s needs a provider: set model.provider in config.toml or write --model PROVIDER:%s", spec, spec)
		}
		cfg.Name = spec
	}
	m, err := model.New(cfg, getenv, nil)
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
func sleepModelError(err error) *errcode.Error {
	var me *model.Error
	if errors.As(err, &me) {
		code := errcode.Code(me.Code)
		switch code {
		case errcode.ModelUnavailable, errcode.ModelAuth, errcode.ModelConfig, errcode.ModelOutputInvalid:
		default:
			code = errcode.ModelUnavailable
		}
		return &errcode.Error{Code: code, Message: "sleep model: " + me.Message, Err: err}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &errcode.Error{Code: errcode.ModelUnavailable, Message: "sleep model: " + err.Error(), Err: err}
	}
	return errcode.As(err)
}

// parseSleepAnswer reads the model's {"edits":[…]} answer. An answer that
// is not that shape is MODEL_OUTPUT_INVALID; the edits themselves are
// judged later, against the whole workspace.
func parseSleepAnswer(resp model.Response) ([]result.Edit, error) {
	if resp.Truncated {
		return nil, errcode.Errorf(errcode.ModelOutputInvalid, "the model's answer stopped at the token limit; nothing was changed")
	}
	obj, err := model.ExtractJSONObject(resp.Text)
	if err != nil {
		return nil, sleepModelError(err)
	}
	var ans struct {
		Edits *[]result.Edit `json:"edits"`
	}
	if err := json.Unmarshal([]byte(obj), &ans); err != nil {
		return nil, errcode.Errorf(errcode.ModelOutputInvalid, "the model's answer is not {\"edits\":[…]}: %v", err)
	}
	if ans.Edits == nil {
		return nil, errcode.Errorf(errcode.ModelOutputInvalid, "the model's answer has no \"edits\" array")
	}
	if len(*ans.Edits) == 0 {
		return nil, nil
	}
	zero := int64(0)
	doc, err := json.Marshal(result.Transaction{BaseRevision: &zero, Edits: *ans.Edits})
	if err != nil {
		return nil, errcode.Errorf(errcode.ModelOutputInvalid, "the model's edits cannot be read: %v", err)
	}
	tx, err := result.ParseTransaction(doc)
	if err != nil {
		ee := errcode.As(err)
		return nil, &errcode.Error{Code: errcode.Rejected, Message: "the model's transaction is malformed: " + ee.Message, Err: err}
	}
	return tx.Edits, nil
}
