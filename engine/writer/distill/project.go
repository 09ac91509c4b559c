package distill

import (
	"scriptorium/engine/index/reldate"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// conventionRe marks what an owner states about a project: rules,
// layout, tools, versions, defaults.
var conventionRe = lazyRegexp(`(?i)\b(?:(?:in|on|for) this (?:repo|repository|codebase|project|package|firmware|site|website|app|code|crate|library|module|service|board|screen|page|dashboard)|(?:standard|std) ?lib(?:rary)?|no dependenc(?:y|ies)|(?:ids?|keys?|codes?) (?:are|is|stay)|decimals?|decimal (?:comma|point)s?|zero[- ]padded|that's (?:how|what) (?:the|it|they|we|our)|utc|time ?zones?|local time|store (?:\w+ ){0,2}(?:in|as)|runs? from the (?:repo|repository|project) root|like the others|read-only|read only|goes to|only, not|subject line|one[- ]line subject|imperative|in (?:english|french|norwegian|german|spanish|dutch|polish|italian|portuguese|swedish|danish|chinese|japanese)|(?:has|have|needs?) to stay|like the rest of (?:the )?(?:code|codebase|repo|project|app)|(?:backend|frontend|server|api|app|database|db|stack|site|hosting|host) (?:is|uses|runs)|(?:i|we) (?:only )?test (?:on|with|in)|, not \d+|deploy(?:s|ed)? (?:to|on)|hosted on|built with|written in|(?:is|are) (?:set|defined|configured|kept|stored) in|(?:consistent|same) (?:with|as) the rest|as (?:we|the rest of the code) do|starts? with|naming|named|format|always|never|don't|do not|must|should|make sure|from now on|before (?:you )?commit|convention|we use|we keep|we're on|we are on|our|lives? in|goes in|go in|is in|are in|live under|prefixed|style|snake_case|camelcase|kebab-case|columns?|rows?|default|target is|runs? on|run (?:\S+ ){0,4}with|instead of|not \S+ directly|no new dependenc|keep \S+ (?:small|out)|port \d+|node \d+|python ?\d|go 1\.\d+|version|we're using|uses?|never commit|is on|are on|every (?:\w+ ){0,2}(?:goes|go|must|is|are|uses?|needs?|gets?|has|have)|allows? \d+|per (?:key|token|user|minute|second|hour|request|line|file|module|package|commit|feature|change|test|page)|commit messages?|everywhere|sorted|alphabetical(?:ly)?|(?:shell|editor|terminal|runtime) (?:is|uses|runs))\b`)

// codeRe marks a command, a path or a file name.
var codeRe = lazyRegexp("`[^`]+`|(?:^|\\s)(?:\\.{0,2}/|~/)?[\\w.-]+/[\\w./-]*|\\b[\\w-]+\\.(?:go|py|ts|tsx|js|jsx|json|toml|yaml|yml|md|mod|sql|env\\w*|rs|rb|java|kt|swift|c|h|cpp|cs|php|sh|cfg|ini|lock|xml|html|css)\\b|\\b(?:make|go test|go run|pnpm|npm|yarn|bun|uv|pip|poetry|pytest|cargo|git|docker|ruff|eslint|prettier|golangci-lint|playwright|gradle|mvn)\\b|--[a-z][\\w-]*|\\b[a-z]+_[a-z_]+\\b|\\b[A-Z]+_[A-Z_]+\\b|(?:^|\\s)\\.[a-z][\\w.-]+|\\b[A-Z][a-z]+[A-Z]\\w*\\b|\\b(?:port|localhost:?) ?\\d{2,5}\\b|\\bon \\d{4,5}\\b|\\b[A-Z][A-Z0-9_]*=\\S+|\\b[a-z][\\w.-]*=[\\w.-]+|(?:^|\\s)#[a-z][\\w-]+|\"[^\"]{3,40}\"")

// taskVerbs open a one-off request ("fix it", "add a flag"): the session
// summary says what was asked, the project memory does not keep it.
var taskVerbs = map[string]bool{"fix": true, "add": true, "find": true, "look": true, "check": true, "commit": true,
	"move": true, "set": true, "implement": true, "refactor": true, "write": true, "create": true, "can": true,
	"could": true, "help": true, "investigate": true, "debug": true, "update": true, "change": true, "remove": true,
	"delete": true, "rename": true, "try": true, "show": true, "tell": true, "go": true, "i": true, "i'd": true,
	"i'm": true, "i'll": true, "lets": true, "ok": true, "okay": true, "great": true, "thanks": true,
	"nice": true, "good": true, "perfect": true, "yes": true, "no": true}

// copulaPathRe says where something is: "X is src/…", "X are in cmd/…".
var copulaPathRe = lazyRegexp("(?i)\\b(?:is|are|lives?|sits?|goes|go)(?: in| at| under)? `?(?:\\.{0,2}/|~/)?[\\w.-]+(?:/[\\w.-]*)+|(?i)\\b(?:is|are)(?: in| at)? `?[\\w-]+\\.(?:go|py|rs|ts|tsx|js|toml|yaml|yml|json|md|sql)\\b")

// commandRe marks a fact about how to run something.
var commandRe = lazyRegexp(`(?i)\b(?:run|runs|running|tests?|server|port|localhost|make \w+|uv run|pnpm \w+|npm \w+|go test|pytest|cargo \w+)\b`)

// codingDecisionRe marks an owner's choice during a session.
var codingDecisionRe = lazyRegexp(`(?i)\b(?:let's|go with|going with|for now|leave|skip|instead|only|decided|yes|no new)\b`)

// durableRe marks a rule meant to last beyond the session.
var durableRe = lazyRegexp(`(?i)\b(?:always|never|from now on|in future|going forward|convention|every time)\b`)

// clauseInstructionRe is a standing instruction opening a later clause.
var clauseInstructionRe = lazyRegexp(`(?i)[,;:] (?:keep|always|never|don't|do not|avoid|make sure|drop|skip|ignore|exclude) `)

// yetRe marks a sentence about the state of this session: "don't commit
// yet".
var yetRe = lazyRegexp(`(?i)\byet\b`)

// sessionBound reports whether a sentence names today, tonight or
// tomorrow: the session's own time, not a lasting rule.
func sessionBound(text string, at time.Time) bool {
	day := at.UTC().Truncate(24 * time.Hour)
	for _, m := range dateMentions(text, at) {
		if m.Unit == reldate.Day && len(m.Days) > 0 && !m.Days[0].Before(day) && !m.Days[0].After(day.AddDate(0, 0, 1)) {
			return true
		}
	}
	return false
}

// scopeRe opens or holds a decision about what a session does or leaves:
// "leave firefox for now", "skip the flaky test", "keep the old API".
var scopeRe = lazyRegexp(`(?i)^(?:leave|skip|keep|drop|ignore|don't touch|do not touch|stick with|stay on)\b|\b(?:for now|until (?:we|i|the)|out of scope)\b`)

// projectFact makes a fact about the project from one sentence the owner
// said in a coding session.
func (d *distiller) projectFact(i int, sn sentence, sentenceIndex int) (Fact, bool) {
	t := d.s.Turns[i]
	var question Turn
	afterQuestion := i > 0 && d.s.Turns[i-1].Role == RoleAssistant && strings.HasSuffix(strings.TrimSpace(d.s.Turns[i-1].Content), "?")
	if afterQuestion {
		question = d.s.Turns[i-1]
	}
	if t.Role != RoleUser {
		return Fact{}, false
	}
	text := discourse.ReplaceAllString(strings.TrimSpace(sn.text), "")
	if germanText(text) {
		text = germanDropAfterthought(germanLabelRe.ReplaceAllString(text, "")) // "und", "nein,", "übrigens:" (germannews.go); ", den setzt der nginx" (germanchat.go)
	}
	if text == "" || sn.question {
		return Fact{}, false
	}
	annotated, date := annotate(text, t.Time)
	f := analyse(text, d.names)
	if f.preference && f.subject {
		// "I prefer small commits": the owner's own preference, for core.md.
		return d.personFact(i, sentenceIndex, sn, "")
	}
	conventions := len(conventionRe.FindAllString(text, 4)) + zhConventions(text) + deConventions(text) + koConventions(text) // Chinese and German ones by their markers (chinese.go, german.go)
	code := len(codeRe.FindAllString(text, 4))
	rule := prohibition(text)
	if rule {
		conventions++ // "no malloc.", "no javascript on this site": a rule the project keeps
	}
	if limitRe.MatchString(text) {
		code++ // "has to stay under 1 mA": a limit, with its unit
	}
	if correctedRe.MatchString(text) || deadlineRe.MatchString(text) {
		conventions += 2 // "24:30:00 not 00:30:00", "the deadline is 8 August": a value the project keeps
	}
	if labelledSetting(text) || correctionToAssistant(text, code) || settingNumbers(text) >= 2 && !f.first {
		conventions += 2 // a setting under a label, a value corrected, values given as numbers (codingshapes.go)
	}
	if runFromRe.MatchString(text) || dutyRe.MatchString(text) {
		conventions += 2 // "run hugo from the site root", "prod is applied by Hendra the DBA" (codingshapes.go)
	}
	if everRe.MatchString(text) || everyNeedsRe.MatchString(text) {
		conventions += 2 // "nothing sends emails to guests automatically, ever": "never", said the long way
	}
	if isChat(sentence{text: text}, f) && !afterQuestion && (conventions+code == 0 || f.words < 4 && !rule) {
		return Fact{}, false // small talk, unless it says something about the code ("I know the dev server is on 5173")
	}
	score := min(conventions, 2)*2 + min(code, 2)
	if f.instruction || clauseInstructionRe.MatchString(text) {
		score += 2 // "the receipts say …, keep the French wording": an instruction in a later clause too
	}
	decision := afterQuestion || codingDecisionRe.MatchString(text)
	if (sessionBound(text, t.Time) || yetRe.MatchString(text)) && !durableRe.MatchString(text) {
		return Fact{}, false // "leave the LazyLock fix for tomorrow and don't commit yet": about this session
	}
	if decision && !afterQuestion && f.words >= 4 && scopeRe.MatchString(text) {
		score += 2 // "leave firefox for now", "skip firefox in the config": the owner decides the scope
	}
	if afterQuestion {
		score += 3 // the owner's answer to the assistant's question is a decision
	}
	if code > 0 && copulaPathRe.MatchString(text) {
		score += 2 // "The importer is src/import/csv.rs"
	}
	opening := strings.ToLower(strings.Trim(firstWord(text), ",.!:;"))
	if taskVerbs[opening] && conventions == 0 && !afterQuestion {
		return Fact{}, false
	}
	if f.words < 4 && !afterQuestion {
		score--
	}
	if score < 3 {
		return Fact{}, false
	}
	fact := Fact{Subject: d.project, Kind: KindProject, Theme: ThemeConventions, Date: date}
	switch {
	case decision && conventions == 0 || afterQuestion:
		fact.Kind, fact.Theme = KindDecision, ThemeDecisions
	case commandRe.MatchString(text) && code > 0:
		fact.Theme = ThemeCommands
	}
	fact.Text = rewrite(annotated, d.owner, rewriteOptions{we: d.project, keepYou: true, names: d.names})
	if afterQuestion && (f.words < 5 || startsLower(text)) && sentenceIndex == 0 {
		// "only posted ones." means nothing alone: the question goes with it.
		fact.Text = quote("the assistant", cleanSentence(question.Content)) + " " + quote(d.owner, cleanSentence(text))
		fact.Cites = []string{question.Ref, t.Ref}
	}
	return fact, true
}

// limitRe is a limit with its unit: "under 1 mA", "at most 200 MB".
var limitRe = lazyRegexp(`(?i)\b(?:under|below|above|over|at most|at least|within|max|maximum|minimum) \d+(?:[.,]\d+)? ?(?:ma|mah|ah|v|w|kw|kwh|b|kb|mb|gb|tb|ms|s|sec|min|%|px|em|chars|characters|lines|rps|qps)\b`)

// deadlineRe is a deadline or a cut-off given its date: "the RSVP
// deadline is 15 August".
var deadlineRe = lazyRegexp(`(?i)\b(?:deadline|due date|cut-?off)s? (?:is|are|stays|becomes|moves to) (?:now |still )?(?:the )?\d`)

// everRe is a rule with "ever" closing it: "nothing sends emails,
// ever", "no one pushes to main. Ever."
var everRe = lazyRegexp(`(?i)^(?:nothing|no one|nobody|none of)\b.*,? ever[.!]*$`)

// notRules are the words after "no" that make no rule: "no thanks", "no
// idea", "no, the other one", "no no."
var notRules = map[string]bool{"thanks": true, "thank": true, "problem": true, "problems": true, "worries": true,
	"idea": true, "need": true, "way": true, "rush": true, "it": true, "that": true, "this": true, "i": true,
	"you": true, "we": true, "the": true, "not": true, "wait": true, "sorry": true, "luck": true, "change": true,
	"changes": true, "errors": true, "error": true, "difference": true, "clue": true, "one": true, "longer": true,
	"no": true, "yes": true}

// prohibition reports whether a sentence opens with "no" and the thing a
// project does without ("no malloc.", "no javascript on this site"); "no,
// …" and "no thanks" are answers.
func prohibition(text string) bool {
	for k, clause := range strings.Split(strings.ToLower(text), ", ") {
		fs := strings.Fields(clause)
		if len(fs) < 2 || fs[0] != "no" || k > 0 && len(fs) > 2 {
			continue // a later clause is a rule when it is "no X" alone ("PHP 8.1, no composer, no framework")
		}
		w := strings.Trim(fs[1], ".!,;:")
		if w != "" && w == strings.TrimRight(fs[1], ".!") && !notRules[w] && unicode.IsLetter([]rune(w)[0]) {
			return true
		}
	}
	return false
}

// startsLower reports whether s opens with a lower-case letter: a
// fragment that answers something ("an empty report, with a zero total").
func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// narrationRe opens an assistant turn that says what it will do next.
var narrationRe = lazyRegexp(`(?i)^(?:let me|now let me|now i'll|i'll|i will|i'm going to|next,? i|first,? i|running|committing|now running|let's)\b`)

// outcomeRe marks a turn that reports how the work ended.
var outcomeRe = lazyRegexp(`(?i)\b(?:done|fixed|committed|commit(?:ted)? as|added|tests? pass|all \d+ tests|passes|passed|passing|set up|implemented|resolved|complete|completed|finished|skipped|created|now lives|now uses|now persists|nothing is committed|haven't committed|pushed|merged|deployed|opened (?:a )?(?:pr|pull request)|refactored|renamed|migrated|removed|replaced|updated)\b`)

// outcomeTurn finds the turn that ends a coding session: the last
// assistant turn of some length that reports work done.
func (d *distiller) outcomeTurn() int {
	ack := -1 // an errand's "Done — …" after the report (ackReport): the outcome when no report came before it
	for i := len(d.s.Turns) - 1; i >= 0; i-- {
		t := d.s.Turns[i]
		if t.Role != RoleAssistant {
			continue
		}
		seg := split(t.Content)
		words := 0
		for _, sn := range seg.sentences {
			words += countWords(sn.text)
		}
		text := strings.TrimSpace(t.Content)
		if words < 10 || strings.HasSuffix(text, "?") || narrationRe.MatchString(text) || !outcomeRe.MatchString(text) && !zhOutcomeRe.MatchString(text) && !deOutcomeRe.MatchString(text) && !koOutcomeRe.MatchString(text) && !labelledReport(text) {
			continue
		}
		if ackReport(text) {
			if ack < 0 {
				ack = i
			}
			continue
		}
		return i
	}
	return ack
}

// verdictRe marks the sentence of a summary that says whether the work
// passes and was committed.
var verdictRe = lazyRegexp(`(?i)commit|pass|fail|skip|todo`)

// outcomeWords bounds an outcome's text.
const outcomeWords = 45

// outcome is how a coding session ended, from the assistant's final
// summary: its first informative sentences and the one that says whether
// the work was committed or passes.
func (d *distiller) outcome() (Fact, bool) {
	if !d.coding() {
		return Fact{}, false
	}
	i := d.outcomeTurn()
	if i < 0 {
		return Fact{}, false
	}
	return d.outcomeAt(i)
}

// outcomeAt is the outcome assistant turn i reports.
func (d *distiller) outcomeAt(i int) (Fact, bool) {
	t := d.s.Turns[i]
	sents := d.informative(split(t.Content).sentences)
	// The first sentence says what was done, the last one that says whether
	// it passes and was committed says how it ended; others fill the room
	// left, in order.
	keep := make([]bool, len(sents))
	words := 0
	take := func(j int) {
		if j < 0 || keep[j] {
			return
		}
		if n := countWords(sents[j]); words == 0 || words+n <= outcomeWords {
			keep[j] = true
			words += n
		}
	}
	if len(sents) > 0 {
		take(0)
	}
	for j := len(sents) - 1; j > 0; j-- {
		if verdictRe.MatchString(sents[j]) {
			take(j)
			break
		}
	}
	for j := range sents {
		take(j)
	}
	var picked []string
	for j, k := range keep {
		if k {
			picked = append(picked, sents[j])
		}
	}
	if len(picked) == 0 {
		return Fact{}, false
	}
	var parts []string
	for _, sn := range picked {
		annotated, _ := annotate(sn, t.Time)
		parts = append(parts, rewrite(annotated, "the assistant", rewriteOptions{we: d.project, you: d.owner, prose: true}))
	}
	f := Fact{Subject: d.project, Kind: KindOutcome, Theme: ThemeOutcomes, Text: strings.Join(parts, " "),
		Cites: []string{t.Ref}, Date: t.Time.UTC().Format(time.DateOnly)}
	if len(d.unsupported(f)) > 0 {
		return Fact{}, false
	}
	return f, true
}

// presentingRe introduces what follows ("Here's a summary of the
// changes:"): it says nothing itself.
var presentingRe = lazyRegexp(`(?i)^(?:here's|here is|here are|below is|the changes|summary|changes made|what i did|what changed)\b.*:?$|:$`)

// informative drops the sentences of a summary that say nothing alone
// ("Done.", "Fixed!").
func (d *distiller) informative(sns []sentence) []string {
	var out []string
	for _, sn := range sns {
		if loc := summaryLabelRe.FindStringIndex(sn.text); loc != nil {
			// "Summary: prod now has the queue": the label goes, what follows is the report.
			sn.text = strings.TrimSpace(sn.text[loc[1]:])
		}
		f := analyse(sn.text, d.names)
		if sn.question || f.words < 3 || isChat(sn, f) && f.words < 4 || presentingRe.MatchString(sn.text) {
			continue
		}
		out = append(out, sn.text)
	}
	return out
}
