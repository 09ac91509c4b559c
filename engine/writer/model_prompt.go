package writer

import (
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/writer/distill"
	"scriptorium/workspace/archive"
)

// What the model writer's prompt says about each session and turn: who
// spoke (the owner, the assistant, another named person) and where the
// session's facts are filed, the same knowledge the offline distiller
// files by (sessionOf, distill.TopicFor, distill.ThreadName), so a model
// need not guess the owner's turns or a project's name from the text.

// The roles a ROLES line gives.
const (
	promptRoleOwner       = "owner"
	promptRoleAssistant   = "assistant"
	promptRoleParticipant = "participant"
)

// promptRole is one ROLES line: who spoke a turn. It is not a field of
// the TURNS line, whose shape is the writer protocol's (SPEC §7).
type promptRole struct{ ref, role string }

// promptSession is one SESSIONS line; an empty field is unknown.
type promptSession struct {
	Session     string `json:"session"` // "<provider>/<thread>"
	Title       string `json:"title,omitempty"`
	Project     string `json:"project,omitempty"` // the working directory
	ProjectFile string `json:"project_file,omitempty"`
	Owner       string `json:"owner,omitempty"` // only when the owner speaks in the batch
	OwnerFile   string `json:"owner_file,omitempty"`
	// People are the participants' files by their TURNS speaker label.
	People     map[string]string `json:"people_files,omitempty"`
	ThreadFile string            `json:"thread_file"`
	Group      bool              `json:"group,omitempty"`
}

// promptContext is what the prompt says about a batch's sessions, and
// the topic files its facts belong in (shown to the model first).
type promptContext struct {
	sessions []promptSession
	turns    []writerTurn // in the records' order
	roles    []promptRole // in the same order
	files    []string
}

// promptContextOf reads recs as the offline distiller does, calling the
// owner owner ("" for "the owner").
func promptContextOf(v *engine.View, recs []distillRecord, owner string) promptContext {
	var pc promptContext
	byThread := map[string][]distillRecord{}
	var threads []string
	for _, r := range recs {
		if byThread[r.Thread] == nil {
			threads = append(threads, r.Thread)
		}
		byThread[r.Thread] = append(byThread[r.Thread], r)
	}
	prior := threadFiles(v, threads)
	roles := map[string]string{}
	labels := map[string]string{}
	for _, r := range recs {
		if r.SpeakerID != "" || r.SpeakerDisplay != "" {
			labels[r.Ref] = archive.SpeakerLabel(r.SpeakerDisplay, r.SpeakerID)
		}
	}
	seenFile := map[string]bool{}
	addFile := func(p string) {
		if p != "" && !seenFile[p] {
			seenFile[p] = true
			pc.files = append(pc.files, p)
		}
	}
	for _, th := range threads {
		s := sessionOf(th, byThread[th], owner)
		s.Project = projectRoot(v, nil, s.Project)
		ps := promptSession{Session: th, Title: s.Title, Project: s.Project, Group: s.Group}
		if name := distill.ProjectName(s.Project); name != "" {
			ps.ProjectFile, _ = distill.TopicFor(distill.Fact{Subject: name}, s)
		}
		ps.ThreadFile = threadPath(v, nil, s, prior[th])
		var people []string
		for _, t := range s.Turns {
			switch {
			case t.Role == distill.RoleAssistant:
				roles[t.Ref] = promptRoleAssistant
			case t.Owner:
				roles[t.Ref] = promptRoleOwner
				name := t.Speaker // sessionOf gives a named owner the owner's name
				if name == "" {
					name = s.OwnerName
				}
				if name == "" {
					name = distill.DefaultOwnerName
				}
				if ps.Owner == "" || ps.Owner == distill.DefaultOwnerName && name != distill.DefaultOwnerName {
					ps.Owner = name
					ps.OwnerFile, _ = distill.TopicFor(distill.Fact{Subject: ps.Owner}, s)
				}
			default:
				roles[t.Ref] = promptRoleParticipant
				p, _ := distill.TopicFor(distill.Fact{Subject: t.Speaker}, s)
				people = append(people, p)
				if ps.People == nil {
					ps.People = map[string]string{}
				}
				ps.People[labels[t.Ref]] = p
			}
		}
		addFile(ps.OwnerFile)
		addFile(ps.ProjectFile)
		for _, p := range people {
			addFile(p)
		}
		addFile(ps.ThreadFile)
		pc.sessions = append(pc.sessions, ps)
	}
	for _, r := range recs {
		pc.turns = append(pc.turns, writerTurn{Ref: r.Ref, Speaker: labels[r.Ref], Content: r.Content})
		pc.roles = append(pc.roles, promptRole{r.Ref, roles[r.Ref]})
	}
	return pc
}

// threadFiles are the thread files holding the summary block in v of each
// of threads that has one: a later batch of a session keeps its file. Read
// afresh for each batch, as the model's earlier answers may have added one.
func threadFiles(v *engine.View, threads []string) map[string]string {
	want := map[string]bool{}
	for _, th := range threads {
		want["summary:"+th] = true
	}
	out := map[string]string{}
	for _, p := range v.TopicPaths() {
		if len(out) == len(want) {
			break
		}
		if !strings.HasPrefix(p, "topics/threads/") {
			continue
		}
		_, file, ok := v.Topic(p)
		if !ok {
			continue
		}
		for _, b := range blocksOf(p, file, nil) {
			if key := b.Slot(); want[key] {
				if th := strings.TrimPrefix(key, "summary:"); out[th] == "" {
					out[th] = p
				}
			}
		}
	}
	return out
}
