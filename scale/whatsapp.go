package scale

// A WhatsApp chat export for the import benchmarks (issue 26's import
// row): one group chat's "Export chat" text in the Android layout most of
// the world's phones write ("31/12/2023, 21:15 - Name: text"), of any size.

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"time"
)

// WhatsAppSeed is the seed of the WhatsApp import benchmarks.
const WhatsAppSeed uint64 = 4040

// WhatsAppExport writes one group chat of at least size bytes to w and
// returns the bytes written and the number of messages that become turns:
// the encryption notice, the group's creation and its members added, then
// messages from ChatMembers a few minutes apart, one in ten several lines
// long, media placeholders (turns), deleted messages and joins (skipped)
// among them. Phones export at most 40,000 messages of a chat (about
// 4 MiB); a larger size writes a longer chat than a phone would. The
// chat starts on a day given by the seed, so that chats of different
// seeds have different sessions. The same size and seed give the same
// bytes.
func WhatsAppExport(w io.Writer, size int64, seed uint64) (written int64, turns int, err error) {
	r := rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))
	g := newTextGen(r)
	bw := bufio.NewWriterSize(w, 256<<10)
	cw := &countWriter{w: bw}
	t := time.Date(2019, 3, 1, 8, 0, 0, 0, time.UTC).Add(time.Duration(seed%5000)*61*time.Hour + time.Duration(r.IntN(1440))*time.Minute)
	var werr error
	printf := func(format string, args ...any) {
		if werr == nil {
			_, werr = fmt.Fprintf(cw, format, args...)
		}
	}
	stamp := func() string {
		return fmt.Sprintf("%02d/%02d/%d, %02d:%02d", t.Day(), t.Month(), t.Year(), t.Hour(), t.Minute())
	}
	printf("%s - Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them. Tap to learn more.\n", stamp())
	printf("%s - %s created group \"%s %d\"\n", stamp(), ChatMembers[0], pick(r, genProjects), seed)
	for _, m := range ChatMembers[1:] {
		printf("%s - %s added %s\n", stamp(), ChatMembers[0], m)
	}
	for cw.n < size && werr == nil {
		t = t.Add(time.Duration(r.IntN(9)) * time.Minute)
		who := ChatMembers[r.IntN(len(ChatMembers))]
		switch k := r.IntN(200); {
		case k < 1:
			printf("%s - %s joined using this group's invite link\n", stamp(), pick(r, genPeople))
			continue
		case k < 3:
			printf("%s - %s: This message was deleted\n", stamp(), who)
			continue
		case k < 9:
			printf("%s - %s: <Media omitted>\n", stamp(), who)
		case k < 29:
			printf("%s - %s: %s\n%s\n", stamp(), who, g.english(who), g.english(who))
		default:
			printf("%s - %s: %s\n", stamp(), who, g.english(who))
		}
		turns++
	}
	if werr == nil {
		werr = bw.Flush()
	}
	return cw.n, turns, werr
}
