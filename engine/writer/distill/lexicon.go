package distill

import (
	"strings"
)

// The lexicons below are the distiller's vocabulary of durable facts. A
// word counts when a sentence holds it as a whole word (lower case); a
// phrase with a space counts when the sentence holds it between word
// boundaries. They are everyday English for a life and for chat, written
// broad; the dev part of testdata/distill was used to find what kinds of
// word were missing, never to copy its sentences.

// themeWords are the words that file a fact under a person's theme. They
// are everyday English for a life (jobs and study, family, homes and
// travel, health, things owned, pastimes), broad on purpose: a chat
// between friends names a hobby or an illness the set never saw.
var themeWords = map[string][]string{
	ThemeWork: {"job", "jobs", "work", "worked", "working", "hospital", "pharmacist", "engineer",
		"engineering", "teacher", "teaches", "teaching", "nurse", "nursing", "doctor", "driver", "office", "promoted",
		"promotion", "hired", "hiring", "startup", "company", "notice", "shift", "shifts", "department", "head of",
		"career", "salary", "boss", "colleague", "colleagues", "coworker", "coworkers", "clinic", "postdoc", "phd",
		"thesis", "retire", "retired", "retiring", "retirement", "interview", "applying", "applied", "freelance",
		"freelancer", "contract", "conference", "backend", "designer", "developer", "manager", "lead", "team",
		"school", "role", "employer", "client", "clients", "customers", "business", "on nights", "night shift",
		"night shifts", "fire station", "firefighter", "police", "on-call", "on call", "rota", "ward", "overtime",
		"pension", "redundant", "laid off", "layoff", "resigned", "resign", "self-employed", "consultant",
		"contractor", "agency", "firm", "apprenticeship", "apprentice", "internship", "intern", "university",
		"uni", "college", "degree", "masters", "studying", "student", "students", "exam", "exams", "semester",
		"lecturer", "professor", "chef", "restaurant", "barista", "shop", "warehouse", "factory", "payroll",
		"pay rise", "raise", "bonus", "launched", "coworking", "supervisor", "founder", "co-founder", "ceo", "director",
		"electrician", "plumber", "carpenter", "builder", "mechanic", "accountant", "lawyer", "solicitor",
		"architect", "dentist", "vet", "paramedic", "midwife", "pilot", "scientist", "researcher", "programmer",
		"analyst", "physiotherapist", "therapist", "social worker", "cleaner", "courier", "farmer", "baker",
		"hairdresser", "tutor", "journalist", "editor", "banker", "bank", "sales", "marketing", "remote",
		"commute", "workplace", "permit", "certified", "qualified", "graduate", "pharmacy",
		"surgery hours", "shop floor", "classroom", "lab", "studio", "newsroom", "court", "salon"},
	ThemeFamily: {"husband", "wife", "partner", "boyfriend", "girlfriend", "fiance", "fiancé", "fiancee",
		"fiancée", "kids", "kid", "children", "child", "son", "sons", "daughter", "daughters", "baby", "babies",
		"newborn", "toddler", "twins", "mum", "mom", "mother", "dad", "father", "sister", "brother", "siblings",
		"parents", "grandma", "grandad", "grandpa", "grandmother", "grandfather", "granny", "gran", "nan",
		"grandkids", "grandchildren", "grandson", "granddaughter", "grandparents", "aunt", "auntie", "uncle",
		"cousin", "cousins", "niece", "nephew", "in-laws", "mother-in-law", "father-in-law", "stepmum", "stepmom",
		"stepdad", "family", "wedding", "engaged", "married", "marry", "divorce", "divorced", "separated",
		"broke up", "split up", "dating", "birthday", "anniversary", "born", "years old", "turned", "turning", "turns",
		"proposed", "maid of honour", "best man", "bridesmaid", "honeymoon", "funeral", "passed away",
		"christening", "godson", "goddaughter"},
	ThemePlaces: {"live", "lives", "lived", "living", "moved", "moving", "move", "flat", "house", "apartment", "home",
		"neighbourhood", "neighborhood", "city", "street", "road", "town", "village", "suburb", "relocate",
		"relocated", "relocating", "transfer", "moved in", "rent", "renting", "rented", "landlord", "lease",
		"mortgage", "condo", "dorm", "residence", "roommate", "flatmate", "housemate", "hometown", "grew up",
		"abroad", "emigrated", "visa", "citizenship", "passport", "trip", "holiday", "vacation", "travel",
		"travelling", "traveling", "road trip", "backpacking", "flight", "flights", "flew", "layover", "airport"},
	ThemeHealth: {"allergic", "allergy", "allergies", "surgery", "operation", "replacement", "injury", "injured",
		"broke", "broken", "fracture", "fractured", "diagnosed", "diagnosis", "diabetes", "asthma", "pregnant",
		"pregnancy", "recovering", "recovery", "recovered", "physio", "physiotherapy", "knee", "wrist", "hip",
		"ankle", "shoulder", "hamstring", "calf", "ligament", "back pain", "medication", "meds", "hay fever",
		"coeliac", "celiac", "gluten", "lactose", "dairy", "intolerant", "intolerance", "sick", "ill", "illness",
		"cancer", "chemo", "chemotherapy", "tumour", "tumor", "biopsy", "therapy", "a&e", "er", "emergency room",
		"stomach", "drink", "drinking", "sober", "migraine", "migraines", "blood pressure", "surgeon", "cardiologist",
		"specialist", "stent", "heart", "heart attack", "stroke", "artery", "scan", "x-ray", "mri", "cast",
		"crutches", "stitches", "sprained", "sprain", "torn", "tore", "concussion", "infection", "flu", "covid",
		"fever", "arthritis", "cataract", "adhd", "autism", "autistic", "dyslexia", "dyslexic", "anxiety",
		"depression", "burnout", "mental health", "counselling", "counseling", "inhaler", "insulin", "epipen",
		"miscarriage", "ivf", "rehab", "pain", "insomnia", "hearing aid", "vaccine", "vaccinated", "dentist",
		"tendinitis", "tendonitis", "rotator cuff", "bursitis", "sciatica", "hernia", "slipped disc"},
	ThemePossessions: {"bought", "buy", "buying", "sold", "sell", "selling", "own", "owns", "car", "bike", "e-bike",
		"cat", "cats", "dog", "dogs", "puppy", "kitten", "adopted", "adopt", "van", "boat", "truck", "ute",
		"motorbike", "motorcycle", "scooter", "caravan", "camper", "pet", "pets", "rabbit", "hamster", "horse",
		"parrot", "chickens", "tortoise", "rescue", "inherited"},
	ThemeHabits: {"every", "usually", "times a week", "running", "runs", "run", "gym", "yoga", "pilates", "classes",
		"class", "lessons", "learning", "learn", "bake", "bakes", "baking", "cook", "cooks", "cooking", "read",
		"reads", "reading", "plays", "play", "playing", "band", "guitar", "piano", "drums", "violin", "bass",
		"ukulele", "choir", "singing", "dancing", "dance", "ballet", "streak", "hobby", "cycle", "cycling", "hike",
		"hiking", "climbing", "bouldering", "garden", "gardening", "volunteer", "volunteering", "allotment",
		"gave up", "gave it up", "quit", "football", "soccer", "cricket", "rugby", "tennis", "golf", "basketball",
		"baseball", "hockey", "netball", "volleyball", "badminton", "squash", "boxing", "karate", "judo",
		"jiu-jitsu", "martial arts", "marathon", "half marathon", "triathlon", "parkrun", "swim", "swimming",
		"surf", "surfing", "skiing", "snowboarding", "skating", "skateboarding", "kayaking", "rowing", "sailing",
		"fishing", "camping", "painting", "drawing", "sketching", "pottery", "ceramics", "knitting", "crochet",
		"sewing", "photography", "writing", "poetry", "journaling", "meditation", "meditate", "chess",
		"board games", "gaming", "video games", "bowls", "darts", "quiz", "trivia", "workout", "lifting",
		"walking", "birdwatching", "brewing", "personal best", "coffee", "alcohol", "smoking", "sugar",
		"league", "club", "season", "practice", "training", "church", "mosque", "temple", "synagogue",
		"duolingo", "language", "podcast", "blog", "drive", "drives", "driving", "licence", "license", "hiked", "climbed", "surfed", "swam", "cycled", "painted",
		"baked", "cooked", "camped", "fished", "skied", "danced", "sang", "trained", "practised", "practiced",
		"jogging", "jogged", "rowed", "sailed", "knitted", "gardened", "volunteered"},
}

// themeOrder breaks ties between themes with as many hits.
var themeOrder = []string{ThemeHealth, ThemeWork, ThemeFamily, ThemePlaces, ThemePossessions, ThemeHabits}

// preferenceRe marks a preference: someone likes, dislikes or prefers
// something ("I prefer…", "Karim hates…", "my favourite…", "I'm vegan").
var preferenceRe = lazyRegexp(`(?:^|[^\p{L}\p{N}_'])(?:(?:(?i:i|we|he|she|they)|\p{Lu}\p{Ll}+)(?i:(?:'d| would)? (?:really |also |much |just |absolutely |honestly )?(?:prefers?|love|loves|hates?|like|likes|enjoys?|dislikes?|can't stand|cannot stand|don't like|doesn't like|do not like|can't do|don't eat|doesn't eat|never eat|rather))|(?i:(?:my|his|her|their) favou?rite|(?:i'm|i am|is|are|i've been|i'm still|still|(?:i've |has |have )?(?:gone|went|turned|become|became)(?: mostly| fully)?) (?:a )?(?:vegetarian|vegan|pescatarian|teetotal)|want to work on|never suggest|no [a-z]+ please))\b`)

// instructionStarts open a standing instruction.
var instructionStarts = []string{"always", "never", "don't", "do not", "please", "keep", "use", "avoid", "make sure",
	"from now on", "for future reference", "no ", "explain", "only", "give", "remember"}

// instructionWords mark a standing instruction anywhere in a sentence.
var instructionWords = []string{"from now on", "for future reference", "always", "never", "in future", "going forward",
	"unless i ask", "please use", "please keep", "please don't"}

// decisionWords mark a decision.
var decisionWords = []string{"let's go with", "let's do", "go with", "going with", "decided", "we'll go with",
	"chose", "settled on", "let's say", "booked", "decided:", "voted for", "we picked", "we chose", "agreed on",
	"it is then", "decision:", "decision recap", "final decision", "the decision is"}

// planWords mark a plan.
var planWords = []string{"will", "'ll", "going to", "gonna", "planning", "plan to", "booked", "signed up",
	"entered", "registered", "next", "tomorrow", "starting", "starts", "due", "deadline", "flying", "fly",
	"moving", "leaving", "hoping to", "thinking of", "thinking about", "want to", "wanna", "upcoming"}

// subjectPronouns are the first-person words that make the speaker a
// sentence's subject.
var subjectPronouns = map[string]bool{"i": true, "i'm": true, "i've": true, "i'd": true, "i'll": true, "we": true,
	"we're": true, "we've": true, "we'll": true, "we'd": true, "let's": true}

// strongWords are nearly always a fact about someone's life.
var strongWords = []string{"allergic", "allergy", "pregnant", "diagnosed", "surgery", "operation", "injury",
	"diabetes", "asthma", "coeliac", "celiac", "engaged", "proposed", "married", "divorced", "promoted", "promotion",
	"retired", "graduated", "adopted", "vegetarian", "vegan", "born", "passed away", "died", "redundant", "hired",
	"fired", "laid off", "resigned", "moved to", "moving to", "bought a", "new job", "handed my notice", "broke my",
	"broken", "head of", "stroke", "heart attack", "cancer", "miscarriage", "funeral", "broke up", "split up",
	"fiance", "fiancé", "fiancee", "fiancée", "twins", "newborn", "got the job", "got a job", "got into",
	"accepted into", "tore my", "sprained", "citizenship", "mortgage", "apprenticeship", "tendinitis", "tendonitis",
	"sciatica", "hernia", "arthritis", "bursitis", "epilepsy", "crohn's"}

// lifeVerbs say something changed in a life.
var lifeVerbs = []string{"started", "start", "began", "joined", "adopted", "bought", "sold", "moved", "got",
	"quit", "retired", "graduated", "passed", "finished", "signed up", "entered", "booked", "learned", "learning",
	"training", "married", "engaged", "diagnosed", "broke", "left", "handed", "found out", "gave up", "won",
	"switched", "became", "launched", "opened", "completed", "applied", "enrolled", "transferred", "relocated",
	"renovated", "welcomed", "gave birth", "resigned", "tore", "sprained", "injured", "recovered", "failed",
	"lost", "proposed", "split"}

// cjkThemeWords are the theme words of Chinese chat, matched as substrings.
var cjkThemeWords = map[string][]string{
	ThemeWork:        {"工作", "公司", "上班", "辞职", "升职", "医院", "护士", "医生", "老师", "总部", "办公室", "开会", "博士", "论文", "毕业", "大学"},
	ThemeFamily:      {"孩子", "儿子", "女儿", "老公", "老婆", "妈妈", "爸爸", "结婚", "生日", "宝宝", "家人"},
	ThemePlaces:      {"搬", "住在", "回国", "旅行"},
	ThemeHealth:      {"过敏", "手术", "生病", "住院", "受伤", "怀孕", "医生"},
	ThemePossessions: {"买了", "卖了", "车", "猫", "狗"},
	ThemeHabits:      {"每天", "每周", "跑步", "马拉松", "学习", "练习", "游泳"},
}

// chatRe is small talk whatever its words: agreeing to a time, praising
// a place or a photo, asking for photos.
var chatRe = lazyRegexp(`(?i)\b(?:works for (?:me|us|everyone|all of us)|(?:is|are|was|looks|sounds|seems) (?:so |really |very )?(?:nice|good|great|fine|cute|lovely|perfect|amazing|fun|brilliant|gorgeous)|(?:need|want|send|show)(?: me| us)? (?:some |the |a |more )?(?:photos?|pics?|pictures?|videos?|a selfie)\b)`)

// vaguePreferenceRe is a liking for nothing named: "I love it", "I'd
// love that".
var vaguePreferenceRe = lazyRegexp(`\b(?:love|loves|hate|hates|like|likes|enjoy|enjoys|prefer|prefers)d? (?:it|that|this|you|them|him|her)\b[^a-z]*$`)

// jobRe is someone's occupation: "I'm a radiographer", "he's a town
// planner", "works as a …er".
var jobRe = lazyRegexp(`\b(?:i'm|i am|he's|she's|he is|she is|they're|is|works as|worked as|starts as|started as|starting as|start as|training as|training to be|job as) (?:a|an) (?:[a-z]+ )?(?:[a-z]+(?:er|or|ist|ian|ant|ent|eon)|nurse|midwife|registrar|vicar|barista|pilot|clerk|chef|cook|vet|doctor|lawyer|teacher|student)\b`)

// preferenceHints are literals one of which every preferenceRe match
// holds (lower case): most sentences skip the expression.
var preferenceHints = []string{"prefer", "love", "hate", "like", "enjoy", "dislike", "stand", "can't do", "eat",
	"rather", "favo", "vegetarian", "vegan", "pescatarian", "teetotal", "want to work", "never suggest", "please"}

// possessionHints are the same for possessionRe.
var possessionHints = []string{"have", "own", "got"}

// mayHold reports whether lower holds one of the hints.
func mayHold(lower string, hints []string) bool {
	for _, h := range hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// questionRe opens a question written without its question mark ("are
// we actually doing the Lakes this year or…").
var questionRe = lazyRegexp(`(?i)^(?:are|is|do|does|did|can|could|will|would|should|have|has|was|were|shall) (?:i|we|you|they|he|she|it|there|the|your|my|our|anyone|someone|everyone)\b`)

// ackWords are sentences that say nothing but politeness, agreement or a
// reaction, whole (after punctuation is dropped).
var ackWords = map[string]bool{
	"thanks": true, "thank you": true, "thx": true, "ty": true, "ok": true, "okay": true, "k": true, "perfect": true,
	"great": true, "nice": true, "cool": true, "lol": true, "haha": true, "yes": true, "no": true, "yep": true,
	"yeah": true, "sure": true, "noted": true, "deal": true, "agreed": true, "same": true, "done": true, "fixed": true,
	"good": true, "better": true, "excellent": true, "awesome": true, "amazing": true, "wow": true, "oh": true,
	"hmm": true, "lgtm": true, "go ahead": true, "will do": true, "sounds good": true, "got it": true,
	"understood": true, "of course": true, "congrats": true, "congratulations": true, "no idea": true,
	"not sure": true, "dunno": true, "idk": true, "no clue": true, "not yet": true, "maybe": true,
}

// chatOpeners open a sentence that is a reaction, a greeting or small
// talk, whatever follows.
var chatOpeners = []string{"thank", "thanks", "happy new year", "happy birthday", "congrat", "good luck",
	"good morning", "morning", "hello", "hi ", "hey", "sorry", "oh no", "oh my", "omg", "wow", "lol", "haha",
	"that's", "that is", "that sounds", "sounds", "you'll", "you're", "you've", "you'd", "you ", "your ",
	"hope", "i hope", "i know", "i see", "i think", "i guess", "i mean", "i wish", "i need to see", "i'm so",
	"i'm sure", "i can't believe", "i love that", "i'd love that", "i approve", "i agree", "i miss", "miss you",
	"love you", "bless", "poor ", "send ", "tell ", "welcome", "enjoy", "safe travels", "get well", "glad",
	"classic", "obviously", "ugh", "ooh", "damn", "fair enough", "no way", "well done", "i'll let you know",
	"we'll see", "let me know", "can't wait", "cheers", "i'll report back", "reminder"}

// discourse opens a sentence without adding to it ("Oh and", "Honestly",
// "Big news:"); the rewrite drops it.
var discourse = lazyRegexp(`(?i)^(?:(?:oh|and|also|actually|honestly|anyway|btw|so|well|ok|okay|yes|yeah|yep|but|plus|um|hmm|ah|lol|haha|ha|tbh|still here|reminder|i mean|hear me out)[,!.:]?\s+|(?:right|sure|listen)[,!.:]\s+|(?:guess what|update|news|fun fact|speaking of [a-z ]{1,20}|(?:the )?(?:big|good|bad|less good|not so good|not so fun|some|small|random|other|other big|another|one more|one|bit of|quick|last) (?:news|joy|ask|question|thing|announcement|update)(?: [a-z ]{0,20}?)?|[a-z]+ (?:update|news))[,:.!]+\s+|(?:big|good|bad|random|some) (?:news|update)\s+)+`)

// firstPerson are the pronouns a third-person text must not use as its
// subject outside quotes (lower case, straight apostrophes).
var firstPerson = map[string]bool{
	"i": true, "i'm": true, "i've": true, "i'd": true, "i'll": true, "me": true, "my": true, "mine": true,
	"myself": true, "we": true, "we're": true, "we've": true, "we'd": true, "we'll": true, "us": true, "our": true,
	"ours": true, "ourselves": true, "let's": true,
}

// lexicon is a word list compiled for lookups: single words in a set,
// phrases (with a space) and suffixes ("'ll") searched in the sentence.
type lexicon struct {
	words    map[string]bool
	phrases  []string
	suffixes []string
}

func newLexicon(entries []string) lexicon {
	l := lexicon{words: map[string]bool{}}
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e, "'"):
			l.suffixes = append(l.suffixes, e)
		case strings.Contains(e, " "):
			l.phrases = append(l.phrases, e)
		default:
			l.words[e] = true
		}
	}
	return l
}

// count counts the entries a sentence holds, given its lower-case text
// (wrapped in spaces) and its words.
func (l lexicon) count(lower string, words []string) int {
	n := 0
	seen := map[string]bool{}
	for _, w := range words {
		if base, ok := strings.CutSuffix(w, "'s"); ok && !l.words[w] {
			w = base // "the wedding's in Beirut", "my mum's recipe"
		}
		if l.words[w] && !seen[w] {
			seen[w] = true
			n++
		}
		for _, suf := range l.suffixes {
			if strings.HasSuffix(w, suf) {
				n++
			}
		}
	}
	for _, p := range l.phrases {
		if containsWord(lower, p) {
			n++
		}
	}
	return n
}

func (l lexicon) has(lower string, words []string) bool { return l.count(lower, words) > 0 }

// lowerWords are the words of a lower-case sentence: split at spaces,
// trimmed of punctuation, apostrophes and inner symbols kept ("a&e",
// "on-call", "i'll").
func lowerWords(lower string) []string {
	fs := strings.Fields(lower)
	out := fs[:0]
	for _, w := range fs {
		w = strings.Trim(w, ",.!?;:()[]{}\"'*`…“”")
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// lexiconsByTheme compiles one lexicon per theme.
func lexiconsByTheme(words map[string][]string) map[string]lexicon {
	m := make(map[string]lexicon, len(words))
	for theme, ws := range words {
		m[theme] = newLexicon(ws)
	}
	return m
}

// The lexicons, compiled once.
var (
	themeLexicons      = lexiconsByTheme(themeWords)
	strongLexicon      = newLexicon(strongWords)
	instructionLexicon = newLexicon(instructionWords)
	decisionLexicon    = newLexicon(decisionWords)
	planLexicon        = newLexicon(planWords)
	lifeLexicon        = newLexicon(lifeVerbs)
	// ownedLexicon is what "my …" makes a fact about the speaker: what
	// they own, their home, job and health ("someone drove into my car").
	// Family is left out: "visiting my aunt" is about the visit.
	ownedLexicon = newLexicon(append(append([]string{"job", "boss", "flat", "house", "home", "office", "team",
		"company", "practice", "surgery", "diagnosis"}, themeWords[ThemePossessions]...), themeWords[ThemeHealth]...))
)

// containsWord reports whether lower holds w with word boundaries on both
// sides (a boundary is anything but a letter or digit).
func containsWord(lower, w string) bool {
	for i := 0; ; {
		j := strings.Index(lower[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isWordByte(lower[start-1]) || !isWordByte(w[0])) &&
			(end == len(lower) || !isWordByte(lower[end]) || !isWordByte(w[len(w)-1])) {
			return true
		}
		i = start + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// hasPrefixAny reports whether lower starts with one of the prefixes.
func hasPrefixAny(lower string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}
