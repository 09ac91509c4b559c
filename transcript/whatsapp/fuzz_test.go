package whatsapp

import (
	"bytes"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

// FuzzParse: Parse never panics, and whatever it accepts is a DAG the store
// can take, with safe ids, and encodes; Stream gives the same turns, skips
// or error. Sniff never panics either.
func FuzzParse(f *testing.F) {
	for _, data := range fixtures(f) {
		f.Add(data)
	}
	f.Add([]byte("1/2/23, 1:02 AM - A: x\n1/2/23, 1:02 AM - A: x\n1/13/23, 12:00 PM - B: <Media omitted>\nPOLL:\n"))
	f.Add([]byte("\u200e[31.12.99, 23:59:59] G: \u200eA hat die Gruppe „x“ erstellt.\r\n[31.12.99, 23:59:59] ~\u202f: \u200e<Anhang: 1.vcf>\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Sniff(data)
		transcripttest.CheckStream(t, "fuzz.txt", data, parseWith(Options{}), streamer(Options{}))
		res, err := Parse(bytes.NewReader(data), "fuzz.txt", Options{})
		if err != nil {
			return
		}
		transcripttest.CheckDAG(t, res)
		transcripttest.CheckIDs(t, res)
		if err := transcript.WriteJSONL(&bytes.Buffer{}, res.Turns); err != nil {
			t.Fatal(err)
		}
	})
}
