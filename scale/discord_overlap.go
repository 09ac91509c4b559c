package scale

// A folder of overlapping DiscordChatExporter exports of one channel
// (issue 26's import row): an owner who exported a channel now and then
// has files that each repeat the end of the one before, some of those
// messages edited since.

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// DiscordOverlapSeed is the seed of the overlapping Discord exports.
const DiscordOverlapSeed uint64 = 3126

// DiscordOverlapFiles is how many exports DiscordOverlap writes.
const DiscordOverlapFiles = 4

// DiscordOverlap writes into dir (created if need be) DiscordOverlapFiles
// exports of one channel, of about size bytes in all: the channel's
// messages in time order, each export a later window of them that holds
// the second half of the one before (its messages again, one in ten of
// them edited since, and the later export dated later). It returns the
// bytes written and the number of messages that become turns, each once.
// The same size and seed give the same bytes.
func DiscordOverlap(dir string, size int64, seed uint64) (written int64, turns int, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, err
	}
	const k = DiscordOverlapFiles
	channel := 838021943394304000 + seed
	// The channel's messages are (k+1) windows of step bytes; export j
	// holds windows j and j+1.
	step := max(size/(2*k), 1)
	files := make([]*os.File, k)
	ws := make([]*bufio.Writer, k)
	cws := make([]*countWriter, k)
	counts := make([]int, k)
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	for j := range k {
		name := fmt.Sprintf("Makers Guild - dev - general [%d] (part %d).json", channel, j+1)
		if files[j], err = os.Create(filepath.Join(dir, name)); err != nil {
			return 0, 0, err
		}
		ws[j] = bufio.NewWriterSize(files[j], 256<<10)
		cws[j] = &countWriter{w: ws[j]}
		fmt.Fprint(cws[j], discordHeader(channel, seed, fmt.Sprintf("2026-01-%02dT20:00:00.1234567+00:00", 5+j)))
	}
	var msg bytes.Buffer
	g := &tgGen{r: rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d)), w: &msg}
	g.text = newTextGen(g.r)
	g.t = time.Date(2021, 3, 1, 8, 0, 0, 0, time.UTC)
	const epoch = 1420070400000 // Discord's, in Unix milliseconds
	prev := []uint64{}
	var at int64 // where the message starts in the channel's stream
	for n := 0; at < int64(k+1)*step; n++ {
		g.t = g.t.Add(time.Duration(1+g.r.IntN(300)) * time.Second)
		id := uint64(g.t.UnixMilli()-epoch)<<22 | uint64(n%4096)
		msg.Reset()
		g.discordMessage(id, channel, prev)
		prev = append(prev, id)
		if len(prev) > 64 {
			prev = prev[1:]
		}
		window := int(at / step)
		edit := g.r.IntN(10) == 0
		for j := max(window-1, 0); j <= min(window, k-1); j++ {
			data := msg.Bytes()
			if j == window && window > 0 && edit {
				data = editedCopy(data, g.t)
			}
			if counts[j] > 0 {
				cws[j].Write([]byte(","))
			}
			cws[j].Write(data)
			counts[j]++
		}
		at += int64(msg.Len())
		if g.err != nil {
			return 0, 0, g.err
		}
	}
	for j := range k {
		fmt.Fprintf(cws[j], "\n  ],\n  \"messageCount\": %d\n}\n", counts[j])
		if err := ws[j].Flush(); err != nil {
			return 0, 0, err
		}
		if err := files[j].Close(); err != nil {
			return 0, 0, err
		}
		files[j] = nil
		written += cws[j].n
	}
	return written, g.turns, nil
}

// editedCopy is a message as a later export has it, edited an hour after
// it was written (left alone when it was edited before).
func editedCopy(msg []byte, at time.Time) []byte {
	const never = `"timestampEdited": null`
	i := bytes.Index(msg, []byte(never))
	j := bytes.Index(msg, []byte(`"content": "`))
	if i < 0 || j < 0 {
		return msg
	}
	out := make([]byte, 0, len(msg)+64)
	out = append(out, msg[:i]...)
	out = fmt.Appendf(out, `"timestampEdited": %q`, at.Add(time.Hour).Format("2006-01-02T15:04:05.000-07:00"))
	out = append(out, msg[i+len(never):j+len(`"content": "`)]...)
	out = append(out, "(edited) "...)
	return append(out, msg[j+len(`"content": "`):]...)
}
