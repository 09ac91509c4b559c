package distill

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// chat builds a session from "speaker: text" lines, a minute apart from
// start. Speaker "owner" is the speakerless owner, "assistant" the
// assistant; any other name is a named speaker, the owner when it is
// ownerName.
func chat(start time.Time, provider, id, ownerName string, lines ...string) Session {
	s := Session{Provider: provider, ID: id}
	for i, l := range lines {
		who, text, _ := strings.Cut(l, ": ")
		t := Turn{Ref: fmt.Sprintf("%s/%s/t%03d", provider, id, i+1), Time: start.Add(time.Duration(i) * time.Minute),
			Role: RoleUser, Content: text}
		switch who {
		case "owner":
			t.Owner = true
		case "assistant":
			t.Role = RoleAssistant
		default:
			t.Speaker, t.SpeakerID, t.Owner = who, strings.ToLower(who), who == ownerName
		}
		s.Turns = append(s.Turns, t)
	}
	return s
}

var saturday = time.Date(2025, 6, 14, 17, 0, 0, 0, time.UTC)

func TestDistil_DropsSmallTalk(t *testing.T) {
	s := chat(saturday, "whatsapp", "c1", "Nadia",
		"Mel: Hey you!! 🎉", "Nadia: Hi! How are you?", "Mel: Good thanks, you?", "Nadia: Great. Thanks for asking!",
		"Mel: lol", "Nadia: 👍", "Mel: Sounds good, see you soon", "Nadia: Of course")
	if facts := Distil(s); len(facts) != 0 {
		t.Errorf("small talk gave %d facts: %+v", len(facts), facts)
	}
	if sum := Summary(s); sum.Text != "" || len(sum.Cites) != 0 {
		t.Errorf("small talk gave a summary: %+v", sum)
	}
}

func TestDistil_KeepsFactsInTheThirdPerson(t *testing.T) {
	s := chat(saturday, "whatsapp", "c2", "Nadia",
		"Mel: Happy Saturday!",
		"Mel: Big news: we're moving to York next month! Dev got a transfer to the York fire station",
		"Nadia: Wow!",
		"Mel: Also I'm allergic to shellfish, found out last Tuesday",
		"Nadia: I adopted a cat called Pico, a tabby from the rescue")
	facts := Distil(s)
	texts := map[string]Fact{}
	for _, f := range facts {
		texts[f.Text] = f
		if fp := FirstPersonWords(f.Text); len(fp) > 0 {
			t.Errorf("%q keeps first person %q", f.Text, fp)
		}
		if len(f.Cites) == 0 {
			t.Errorf("%q cites nothing", f.Text)
		}
	}
	for _, want := range []struct{ text, subject, date, path string }{
		{"Melanie said they are moving to York next month (2025-07).", "Mel", "2025-07", "topics/people/mel.md"},
		{"Mel is allergic to shellfish, found out last Tuesday (2025-06-10).", "Mel", "2025-06-10", "topics/people/mel.md"},
		{"Nadia adopted a cat called Pico, a tabby from the rescue.", "Nadia", "", "topics/people/nadia.md"},
	} {
		want.text = strings.Replace(want.text, "Melanie", "Mel", 1)
		f, ok := texts[want.text]
		if !ok {
			t.Errorf("no fact %q in %q", want.text, keys(texts))
			continue
		}
		if f.Subject != want.subject || f.Date != want.date || f.Path != want.path {
			t.Errorf("%q: subject %q date %q path %q, want %q %q %q", f.Text, f.Subject, f.Date, f.Path,
				want.subject, want.date, want.path)
		}
	}
	if f := texts["Mel said they are moving to York next month (2025-07)."]; f.Key != "home" {
		t.Errorf("a move fills the home slot, got %q", f.Key)
	}
}

func keys(m map[string]Fact) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestDistil_OwnerInstructionsAreCoreCandidates(t *testing.T) {
	s := chat(saturday, "chatgpt", "6790a1c2-5b1e-4f7e-9a3d-0c2e8b7f4a11", "",
		"owner: Can you help me plan dinners? I'm vegetarian.",
		"assistant: Of course! Here are five ideas: chickpea curry, orzo, tacos, pizza and a traybake.",
		"owner: From now on always give quantities in grams, not cups.",
		"assistant: Understood — grams from now on.",
		"owner: thanks!")
	facts := Distil(s)
	var core []string
	for _, f := range facts {
		if f.Core {
			core = append(core, f.Text)
		}
		if f.Subject != DefaultOwnerName || f.Path != "topics/people/owner.md" {
			t.Errorf("%q: subject %q path %q", f.Text, f.Subject, f.Path)
		}
		for _, c := range f.Cites {
			if strings.HasSuffix(c, "t002") || strings.HasSuffix(c, "t004") {
				t.Errorf("%q cites the assistant's answer %s", f.Text, c)
			}
		}
	}
	want := []string{"The owner is vegetarian.", "From now on always give quantities in grams, not cups."}
	if !reflect.DeepEqual(core, want) {
		t.Errorf("core candidates %q, want %q", core, want)
	}
	// With the owner's name, the facts are about the owner by name.
	s.OwnerName = "Nadia Haddad"
	if f := Distil(s); len(f) == 0 || f[0].Text != "Nadia Haddad is vegetarian." || f[0].Path != "topics/people/nadia-haddad.md" {
		t.Errorf("named owner: %+v", f)
	}
}

// A coding session keeps what the owner states about the project and how
// it ended, never the assistant narrating or quoting tools.
func TestDistil_CodingSession(t *testing.T) {
	s := chat(time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC), "claude-code", "5f2b8c1a-0d4e-4b7a-a9c3-71e6d2f08b45", "",
		"owner: The login test is flaky. Can you find out why? Tests run with go test -race ./... here.",
		"assistant: I'll start by looking at the test.",
		"assistant: Let me read the file.",
		"assistant: Now let me run it 20 times:",
		"assistant: ```\n$ go test -race -count=20 ./auth/\n--- FAIL: TestLogin (0.01s)\n```",
		"assistant: Perfect! Found it.",
		"owner: ok. Always run make lint before committing, CI fails otherwise",
		"assistant: Running `make lint` now.",
		"assistant: Done. The flaky TestLogin shared a session map between subtests; each subtest now builds its own. Lint is clean and the fix is committed as 1a2b3c4.",
		"owner: thanks!")
	s.Project = "/home/nadia/src/gatekeeper"
	facts := Distil(s)
	var outcome int
	role := map[string]string{}
	for _, tt := range s.Turns {
		role[tt.Ref] = tt.Role
	}
	for _, f := range facts {
		if f.Subject != "gatekeeper" || f.Path != "topics/projects/gatekeeper.md" {
			t.Errorf("%q: subject %q path %q", f.Text, f.Subject, f.Path)
		}
		for _, c := range f.Cites {
			if role[c] == RoleAssistant && (f.Kind != KindOutcome || !strings.HasSuffix(c, "t009")) {
				t.Errorf("%q cites the assistant's narration or tool output %s", f.Text, c)
			}
		}
		if f.Kind == KindOutcome {
			outcome++
			if !strings.Contains(f.Text, "committed as 1a2b3c4") || f.Date != "2025-03-03" {
				t.Errorf("outcome %q dated %q", f.Text, f.Date)
			}
		}
	}
	if outcome != 1 {
		t.Errorf("%d outcomes in %+v", outcome, facts)
	}
	var keys []string
	for _, f := range facts {
		keys = append(keys, f.Key)
	}
	if !strings.Contains(strings.Join(keys, ","), "test-command") || !strings.Contains(strings.Join(keys, ","), "lint-command") {
		t.Errorf("slots %q: want the test and lint commands", keys)
	}
	sum := Summary(s)
	if sum.Path != "topics/threads/gatekeeper-2025-03-03-0900.md" {
		t.Errorf("summary path %q", sum.Path)
	}
	if !strings.HasPrefix(sum.Text, "The login test is flaky.") || !strings.Contains(sum.Text, "TestLogin") || len(sum.Cites) != 2 {
		t.Errorf("summary %+v", sum)
	}
}

func TestDistil_Deterministic(t *testing.T) {
	for _, c := range loadSet(t) {
		a, sa := DistilAll(c.session)
		b, sb := DistilAll(c.session)
		ja, _ := json.Marshal(append(a, sa))
		jb, _ := json.Marshal(append(b, sb))
		if string(ja) != string(jb) {
			t.Fatalf("%s: two runs differ", c.gold.File)
		}
		if f := Distil(c.session); !reflect.DeepEqual(f, a) {
			t.Fatalf("%s: Distil and DistilAll differ", c.gold.File)
		}
		if s := Summary(c.session); !reflect.DeepEqual(s, sa) {
			t.Fatalf("%s: Summary and DistilAll differ", c.gold.File)
		}
	}
}

// Every fact of the measured parts of the labelled set: cites turns of its
// session, in order; invents nothing; speaks in the third person; has a
// kind, a theme and a path; and its Key is what SlotOf reads from its text.
func TestDistil_Invariants(t *testing.T) {
	for _, c := range measuredCases(t) {
		facts, sum := DistilAll(c.session)
		pos := map[string]int{}
		for i, tt := range c.session.Turns {
			pos[tt.Ref] = i + 1
		}
		for _, f := range append(facts, sum) {
			if f.Text == "" {
				continue
			}
			last := 0
			var ev []Evidence
			for _, r := range f.Cites {
				if pos[r] == 0 || pos[r] <= last {
					t.Errorf("%s: %q cites %s out of order or outside the session", c.gold.File, f.Text, r)
				}
				last = pos[r]
				ev = append(ev, Evidence{Text: c.content[r].Content, Time: c.content[r].Time})
			}
			if len(f.Cites) == 0 || f.Kind == "" || f.Theme == "" || !strings.HasPrefix(f.Path, "topics/") {
				t.Errorf("%s: incomplete fact %+v", c.gold.File, f)
			}
			if miss := Unsupported(f.Text, ev, speakerNames(c.session, f)...); len(miss) > 0 {
				t.Errorf("%s: %q invents %q", c.gold.File, f.Text, miss)
			}
			if fp := FirstPersonWords(f.Text); len(fp) > 0 {
				t.Errorf("%s: %q has first person %q", c.gold.File, f.Text, fp)
			}
			b := Block{Text: f.Text, Path: f.Path, Heading: f.Theme, Cites: f.Cites}
			if f.Key != b.Slot() {
				t.Errorf("%s: %q key %q is not its text's slot", c.gold.File, f.Text, f.Key)
			}
			if strings.Contains(f.Path, c.gold.Session) && strings.Count(c.gold.Session, "-") == 4 {
				t.Errorf("%s: %s is named by the session's UUID", c.gold.File, f.Path)
			}
		}
	}
}

// TestSummary_ShortAndCited: every session of the measured parts gets
// a thread block of at most two sentences and 60 words, citing its turns.
func TestSummary_ShortAndCited(t *testing.T) {
	for _, c := range measuredCases(t) {
		s := Summary(c.session)
		words := len(strings.Fields(s.Text))
		sentences := len(summarySentences(s.Text))
		if s.Text == "" || len(s.Cites) == 0 || words > summaryWords+1 || sentences > 2 {
			t.Errorf("%s: summary of %d words, %d sentences, %d cites: %q", c.gold.File, words, sentences, len(s.Cites), s.Text)
		}
		if s.Kind != KindSummary || s.Key != "summary:"+c.gold.Provider+"/"+c.gold.Session || !strings.HasPrefix(s.Path, "topics/threads/") {
			t.Errorf("%s: summary %+v", c.gold.File, s)
		}
	}
}

// summarySentences counts sentences outside quotes: a quoted request is
// one sentence of the summary.
func summarySentences(text string) []string {
	var out []string
	inQuote, start := false, 0
	for i, r := range text {
		switch {
		case r == '"':
			inQuote = !inQuote
		case !inQuote && (r == '.' || r == '!' || r == '?' || r == '…') && (i+1 == len(text) || text[i+1] == ' '):
			if s := strings.TrimSpace(text[start : i+1]); s != "" && !strings.HasSuffix(s, "said:") {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

func TestTopicFor(t *testing.T) {
	day := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)
	uuid := "5f2b8c1a-0d4e-4b7a-a9c3-71e6d2f08b45"
	coding := chat(day, "claude-code", uuid, "", "owner: Fix the flaky login test please")
	coding.Project = "/home/nadia/src/Gate Keeper/"
	titled := chat(day, "chatgpt", uuid, "", "owner: I'm vegetarian")
	titled.Title = "Weeknight vegetarian meal plan"
	untitled := chat(day, "chatgpt", uuid, "", "owner: hi", "owner: I'm planning a trip to Japan")
	friends := chat(day, "signal", "jonas-nadia", "Nadia Haddad", "Jonas Weber: I broke my wrist")
	emoji := chat(day, "telegram", uuid, "", "🎉: 🎉🎉")
	for _, tc := range []struct {
		name          string
		f             Fact
		s             Session
		path, heading string
	}{
		{"a person", Fact{Subject: "Melanie Park", Theme: ThemeWork}, friends, "topics/people/melanie-park.md", ThemeWork},
		{"the owner unnamed", Fact{Subject: DefaultOwnerName, Theme: ThemeHealth}, titled, "topics/people/owner.md", ThemeHealth},
		{"a project", Fact{Subject: "Gate Keeper", Theme: ThemeCommands}, coding, "topics/projects/gate-keeper.md", ThemeCommands},
		{"a titled thread", Fact{Kind: KindSummary}, titled, "topics/threads/weeknight-vegetarian-meal-plan.md", ThemeSessions},
		{"a coding thread", Fact{Kind: KindSummary}, coding, "topics/threads/gate-keeper-2025-03-03-0900.md", ThemeSessions},
		{"an untitled chat", Fact{Kind: KindSummary}, untitled, "topics/threads/the-owner-2025-03-03-0900.md", ThemeSessions},
		{"a chat between people", Fact{Kind: KindSummary}, friends, "topics/threads/jonas-weber-2025-03-03-0900.md", ThemeSessions},
		{"no words at all", Fact{Kind: KindSummary}, emoji, "topics/threads/telegram-2025-03-03-0900.md", ThemeSessions},
		{"an unnameable person", Fact{Subject: "🎉", Theme: ThemeNotes}, emoji, "topics/people/someone.md", ThemeNotes},
	} {
		path, heading := TopicFor(tc.f, tc.s)
		if path != tc.path || heading != tc.heading {
			t.Errorf("%s: TopicFor = %q, %q; want %q, %q", tc.name, path, heading, tc.path, tc.heading)
		}
		if strings.Contains(path, uuid) {
			t.Errorf("%s: %q is named by a UUID", tc.name, path)
		}
	}
}

func TestProjectName(t *testing.T) {
	for in, want := range map[string]string{"/home/nadia/src/ledgerline": "ledgerline", "/home/nadia/src/ledgerline/": "ledgerline",
		`C:\src\tidepool-web`: "tidepool-web", "": "", "ledgerline": "ledgerline"} {
		if got := ProjectName(in); got != want {
			t.Errorf("ProjectName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSlotOf(t *testing.T) {
	for _, tc := range []struct {
		text    string
		project bool
		want    string
	}{
		{"Melanie got a job at the Hollybank clinic.", false, "work"},
		{"Jonas works as a maths teacher at Cotham.", false, "work"},
		{"Owen is moving to Manchester next month.", false, "home"},
		{"Aiyana lives in Glasgow.", false, "home"},
		{"Melanie is swamped with work and the kids.", false, ""},
		{"June 14th works for Priya.", false, ""},
		{"Run the tests with go test -race ./...", true, "test-command"},
		{"From now on run tests with make test, not go test directly.", true, "test-command"},
		{"Always run make lint before committing.", true, "lint-command"},
		{"tidepool-web uses pnpm, not npm.", true, "package-manager"},
		{"The project is on node 20.", true, "runtime-version"},
		{"The dev server is on 5173.", true, "dev-port"},
		{"Columns are snake_case.", true, ""},
	} {
		if got := SlotOf(tc.text, tc.project); got != tc.want {
			t.Errorf("SlotOf(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
