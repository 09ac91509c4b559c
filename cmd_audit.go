package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/errcode"
)

// runReject takes pending sources out of the review queue. Like promote it
// is the owner's deliberate act: a terminal (where it asks, naming each
// source) or --yes.
func runReject(inv *invocation) error {
	if err := reviewArgs(inv); err != nil {
		return err
	}
	if !inv.bool("yes") && !inv.isTerminal() {
		return &errcode.Error{Code: errcode.Forbidden,
			Message: "reject is interactive: run it on a terminal or pass --yes"}
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		known, queue, err := reviewQueue(ctx, e)
		if err != nil {
			return err
		}
		refs, sel, err := reviewTargets(inv, queue)
		if err != nil {
			return err
		}
		if !inv.bool("yes") {
			fmt.Fprintln(inv.stderr, "To reject (they stay untrusted and leave the review queue; promote reverses it):")
			question := fmt.Sprintf("Reject %d source(s)? [y/N] ", len(refs))
			if sel != nil {
				question = senderQuestion(inv.stderr, "Reject", sel)
			} else {
				describeSources(inv.stderr, refs, known)
			}
			if !inv.confirm(question) {
				return errcode.Errorf(errcode.InvalidArgument, "rejection cancelled; nothing changed")
			}
		}
		res, err := review.Reject(ctx, e, refs, inv.flag("reason"))
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if len(res.Rejected) == 0 {
				fmt.Fprintln(w, "nothing to reject (rejected already)")
				return
			}
			fmt.Fprintln(w, "rejected (untrusted, out of the review queue; `promote` reverses it):")
			describeSources(w, res.Rejected, known)
		})
	})
}

func runAudit(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	q := result.AuditQuery{Source: inv.flag("source"), Since: inv.flag("since")}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		rep, err := audit.Audit(ctx, e, q)
		if err != nil {
			return err
		}
		doc := map[string]any{"entries": rep.Entries}
		if rep.Source != nil {
			doc["source"] = rep.Source
		}
		return inv.emit(doc, func(w io.Writer) {
			if st := rep.Source; st != nil {
				printStory(w, st)
			}
			if len(rep.Entries) == 0 {
				fmt.Fprintln(w, "nothing in the audit trail")
			}
			for _, en := range rep.Entries {
				rev := "-"
				if en.Revision > 0 {
					rev = fmt.Sprintf("r%d", en.Revision)
				}
				actor := en.Actor
				if actor == "" {
					actor = "-"
				}
				fmt.Fprintf(w, "%s  %-17s %-6s %-5s %s\n", en.Time, en.Kind, actor, rev, en.Detail)
				if len(en.Sources) > 0 && q.Source == "" {
					fmt.Fprintf(w, "    sources: %s\n", firstFew(en.Sources))
				}
				if len(en.Changed) > 0 {
					fmt.Fprintf(w, "    changed: %s\n", firstFew(en.Changed))
				}
			}
		})
	})
}

// firstFew lists up to six names and counts the rest: a writer batch can
// concern hundreds of sources (--json lists them all).
func firstFew(names []string) string {
	const few = 6
	if len(names) <= few {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:few], ", "), len(names)-few)
}

// printStory is where a source stands, above its story.
func printStory(w io.Writer, st *result.SourceStory) {
	fmt.Fprintf(w, "source   %s\n", st.Ref)
	if st.State == "missing" {
		fmt.Fprintln(w, "record:  no archive holds it any more")
	} else {
		fmt.Fprintf(w, "archive  %s#%s (%s)\n", st.Path, st.Anchor, st.Time)
		fmt.Fprintf(w, "speaker  %s\n", speakerText(st.SpeakerLabel, st.SpeakerID))
		fmt.Fprintf(w, "record   %s\n", recordState(st))
	}
	cited := make([]string, len(st.CitedBy))
	for i, b := range st.CitedBy {
		cited[i] = "^" + b.Block + " (" + b.Path + ")"
	}
	if len(cited) == 0 {
		cited = []string{"no block"}
	}
	fmt.Fprintf(w, "cited by %s\n\n", strings.Join(cited, ", "))
}

// recordState says in words what the record's trust is and why.
func recordState(st *result.SourceStory) string {
	switch st.State {
	case "rejected":
		s := "rejected by the owner (untrusted, out of the review queue)"
		if st.Reason != "" {
			s += ": " + st.Reason
		}
		return s
	case "pending":
		return "pending review (unpaired sender; untrusted until promoted)"
	case "promoted":
		return "trusted (promoted by the owner)"
	}
	return "trusted"
}
