// Package distill is the offline distiller: it turns a conversation into
// the few facts worth remembering, deterministically and without a model.
//
// Distil keeps durable facts about people (work, family, places, health,
// possessions, habits), preferences and standing instructions, plans and
// events with their dates resolved, decisions, a coding session's outcome
// and the conventions and commands its owner states; it drops greetings,
// thanks, acknowledgements, questions with no fact, an assistant narrating
// its next step, tool output and filler. Each fact is one standalone
// third-person sentence about its subject, or the speaker's words in
// quotes where a rewrite is not safe, and cites the turns it rests on. An
// answer that means nothing alone keeps its question ("Asked \"What's it
// called?\", Sami said: \"Tidebreaker.\""), citing both turns; a person's
// "we" is reported ("Mel said they are moving to York").
//
// The rules are general on purpose: sentences are scored on what they say
// about a life (theme words, dates, names, numbers, recurrence, the first
// person as subject, kinship, answers to questions) and on what marks
// small talk (reactions, praise, sympathy, feelings, promises in passing,
// where someone is today), not on word lists fitted to a test set.
// Never inventing is checked, not hoped for: Unsupported reports every
// content word of a text that its evidence does not hold, and Distil drops
// a fact that fails it.
//
// Summary is one short block per session (what it was about, how it
// ended), TopicFor names the topic file and heading of a fact, and Merge
// decides, against blocks already in memory, whether a fact is new (Add),
// a restatement (Cite) or a changed value of the same slot (Replace).
//
// The package is pure: no engine, no filesystem, no network, no clock. The
// same session gives the same facts, byte for byte.
package distill
