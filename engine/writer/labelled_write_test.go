package writer_test

import (
	"context"
	"path/filepath"
	"testing"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/writer"
	"scriptorium/engine/writer/writereval"
)

// Issue 22 §4 through the real `write`: the labelled set
// (testdata/distill) imported into sessions.db, `write --force` run
// offline, and every block of the topic files it wrote scored against the
// gold: coverage (gold facts whose evidence turn some block cites),
// precision (blocks citing a gold evidence turn), size (block text over
// the turns' text, runes), chat (blocks citing only chat, narration or
// tool turns), never inventing (every content word of a block is in the
// turns it cites), scored by writereval, which scores the model writer
// the same way (model_eval_test.go). engine/recall's TestAnswerInContext
// measures the same written memory through recall.
//
//	go test ./engine/writer -run TestWrite_LabelledSet -v   # the figures

var distillSetDir = filepath.Join("..", "..", "testdata", "distill")

// writeFloors are the least `write` keeps on each part: the issue's
// targets on dev; on heldout2 the targets it meets and, for chat (which
// misses the 2% target, BENCHMARKS.md), a little over the 7.3% measured
// in round five; on heldout3 (tuned on since round four) the targets it
// meets and a little over the 4.5% chat it measures in round four; on
// heldout4 (measured once at round four's end, tuned on in round five)
// precision and size at the targets, coverage and chat just past the
// 0.851 and 9.0% it measures in round five; on heldout5 (measured once at
// round five's end: 0.530 / 0.802 / 0.222 / 19.8%; tuned on in round six)
// precision and size at the targets, coverage at the target and chat just
// past the 0.860 and 3.8% it measures in round six; on heldout6 (written
// for round six, measured once at its end: 0.755 / 0.906 / 0.302 / 9.4%;
// tuned on in round seven: 0.863 / 0.961 / 0.346 / 3.9%) precision, size
// and coverage at the targets, chat just past its figure.
// heldout7 (written for round seven, measured once at its end: 0.730 /
// 0.841 / 0.364 / 15.2%; 0.720 since "No no." is no rule; tuned on in
// round eight: 0.860 / 0.925 / 0.359 / 6.8%): precision, size and coverage
// at the targets, chat just past its figure.
// heldout8 (written for round eight, measured once at its end: 0.670 / 0.822 / 0.318 / 17.8%;
// tuned on in round nine: 0.854 / 0.923 / 0.380 / 7.7%): coverage,
// precision and chat just under those figures, size at the target.
// heldout9 (written for round nine, measured once at its end: 0.396 / 0.904 / 0.189 / 9.6%;
// tuned on in round ten: 0.792 / 0.911 / 0.372 / 8.9%): coverage, precision and chat just
// under those figures, size at the target.
// heldout10 (written for round ten, measured once at its end: 0.689 / 0.921 / 0.311 / 7.9%;
// tuned on in round eleven: 0.854 / 0.926 / 0.383 / 7.4%; 0.864 / 0.932 / 0.384 / 6.8% after round
// thirteen): coverage, precision and chat just under those figures, size at the target.
// heldout11 (written for round eleven, measured once at its end: 0.641 / 0.843 / 0.332 / 15.7%;
// tuned on in round twelve: 0.757 / 0.881 / 0.353 / 11.9%): coverage, precision and chat just
// under those figures, size at the target.
// heldout12 (written for round twelve, measured once at its end: 0.656 / 0.935 / 0.326 / 6.5%; 0.680 / 0.937 / 0.360 / 6.3% once a summary naming
// a file with "__" was no longer refused; tuned on in round thirteen: 0.736 / 0.977 / 0.370 / 2.3%):
// coverage, precision and chat just under those figures, size at the target.
// heldout13 (written for round thirteen, measured once at its end: 0.650 / 0.838 / 0.370 / 16.2%,
// BENCHMARKS.md "Round thirteen's held-out part"; tuned on in round fourteen: 0.708 / 0.885 /
// 0.378 / 11.5%): coverage, precision and chat just past those figures, size at the target.
// heldout14 (written for round fourteen, measured once at its end: 0.347 / 0.883 / 0.241 / 11.7%,
// BENCHMARKS.md "Round fourteen's held-out part"; Japanese barely read; tuned on in round fifteen:
// 0.750 / 0.947 / 0.369 / 5.3%): coverage, precision and chat just past those figures, size at the target.
// Round sixteen's small talk (chat16, BENCHMARKS.md "Small talk in the distiller's blocks"): the chat
// floors of heldout2–5, 9 and 13 lowered to just above the figures they then measure.
// Round two of the small talk (chat17, BENCHMARKS.md "Small talk in the distiller's blocks, round
// two"): the chat floors of heldout2, 4, 7, 8 and 13 lowered to just above the figures they then measure.
// Round three of the small talk (chat18, BENCHMARKS.md "Small talk in the distiller's blocks, round
// three"): the chat floors of heldout3, 4, 9, 10 and 11 lowered to just above the figures they then measure.
// heldout15 (written for round fifteen, measured once at its end: 0.455 / 0.956 / 0.235 / 4.4%,
// BENCHMARKS.md "Round fifteen's held-out part"): the floors at those figures; tuned on in round
// sixteen (0.873 / 0.978 / 0.366 / 2.2%, BENCHMARKS.md "Round sixteen"): just under those figures.
// heldout16 (English, written for round sixteen, measured once at its end: 0.775 / 0.863 / 0.344 /
// 13.0%, BENCHMARKS.md "Round sixteen's held-out part"), tuned on in round seventeen (0.833 / 0.900 /
// 0.350 / 9.3%, BENCHMARKS.md "Round seventeen"): coverage, precision and chat just past those
// figures, size at the target.
// heldout17 (German, written for round seventeen, measured once at its end: 0.650 / 0.820 / 0.447 /
// 16.1%, BENCHMARKS.md "Round seventeen's held-out part"), tuned on in round eighteen (0.850 / 0.902 /
// 0.441 / 8.3%, BENCHMARKS.md "Round eighteen"): coverage, precision and chat just past those
// figures, size at 0.45 (over the target, as the distiller alone); round eighteen, part two (0.850 /
// 0.968 / 0.412 / 1.6%, BENCHMARKS.md "Round eighteen, part two"): precision, size and chat just
// past those figures.
// heldout18 (Korean, written for round eighteen, measured once at its end: 0.474 / 0.928 / 0.211 /
// 6.0%, BENCHMARKS.md "Round eighteen's held-out part"); tuned on in round nineteen (korean.go:
// 0.737 / 0.923 / 0.361 / 4.6%): coverage and chat raised just under those figures, precision
// kept; the size bound moves from 0.22 to 0.37 because coverage grew by half.
var writeFloors = map[string]struct{ coverage, precision, size, chat float64 }{
	"dev":       {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.02},
	"heldout2":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.05},
	"heldout3":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.03},
	"heldout4":  {coverage: 0.84, precision: 0.75, size: 0.40, chat: 0.05},
	"heldout5":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.04},
	"heldout6":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.04},
	"heldout7":  {coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.05},
	"heldout8":  {coverage: 0.85, precision: 0.90, size: 0.40, chat: 0.07},
	"heldout9":  {coverage: 0.78, precision: 0.90, size: 0.40, chat: 0.06},
	"heldout10": {coverage: 0.86, precision: 0.93, size: 0.40, chat: 0.06},
	"heldout11": {coverage: 0.75, precision: 0.87, size: 0.40, chat: 0.09},
	"heldout12": {coverage: 0.73, precision: 0.97, size: 0.40, chat: 0.03},
	"heldout13": {coverage: 0.70, precision: 0.88, size: 0.40, chat: 0.07},
	"heldout14": {coverage: 0.74, precision: 0.94, size: 0.40, chat: 0.06},
	"heldout15": {coverage: 0.87, precision: 0.97, size: 0.40, chat: 0.03},
	"heldout16": {coverage: 0.83, precision: 0.89, size: 0.40, chat: 0.07},
	"heldout17": {coverage: 0.84, precision: 0.96, size: 0.42, chat: 0.02},
	"heldout18": {coverage: 0.73, precision: 0.92, size: 0.37, chat: 0.05},
}

func TestWrite_LabelledSet(t *testing.T) {
	if testing.Short() {
		t.Skip("imports and writes 1,360 turns")
	}
	for _, split := range []string{"dev", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17", "heldout18"} {
		t.Run(split, func(t *testing.T) {
			ctx := context.Background()
			set := enginetest.LoadDistillSet(t, distillSetDir, split)
			state := filepath.Join(t.TempDir(), "state")
			set.Import(t, state)
			e := wtOpen(t, state, nil)
			if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
				t.Fatal(err)
			}
			fig, err := writereval.Score(state, set)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s through write: %s", split, fig)
			for _, f := range fig.Invented {
				t.Errorf("invents: %s", f)
			}
			for _, f := range fig.FirstPerson {
				t.Errorf("in the first person: %s", f)
			}
			for _, p := range fig.UUIDNamed {
				t.Errorf("%s is named by a bare id", p)
			}
			fl := writeFloors[split]
			if fig.Coverage < fl.coverage || fig.Precision < fl.precision || fig.Size > fl.size || fig.ChatRate > fl.chat {
				t.Errorf("below the floors %+v", fl)
			}
		})
	}
}
