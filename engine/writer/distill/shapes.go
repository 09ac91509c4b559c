package distill

// What a sentence's shape says about it whatever its words: a value said
// against the one it replaces, news with a label, and a story too long to
// be a fact.

// rantWords is the most words a chat sentence holds as a fact: past it, a
// sentence strung on commas is a story told ("so the landlord, …, texts
// at 11 at night, … since October, …"), its numbers and names in passing.
const rantWords = 55

// correctedRe is a number said against the one it replaces: "74
// minutes, not 68", "until 02:30 not 02:00", "€158 a night, not €142".
var correctedRe = lazyRegexp(`\d[\d:.,]*(?:\s*[\p{L}%]+){0,2},?\s+not\s+\p{Sc}?\d`)

// labelOpenerRe opens a sentence with a label of a few words and a colon:
// "Update for the plan:", "Follow-up for the record:", "The big
// constraint:".
var labelOpenerRe = lazyRegexp(`^\p{Lu}[\p{L} -]{2,30}:\s`)
