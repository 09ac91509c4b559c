package distill

import "testing"

// BenchmarkDistil distils the measured parts of the labelled set (dev and
// heldout2, 1,360 turns; never a held-out part) per iteration: DistilAll
// for every conversation, as the writer would.
// turns/cpu-s is measured on the process's CPU time, so it does not
// depend on what else the machine runs; the writer's budget (6,000 turns
// in 10 s, everything included) wants ≥ 5,000 turns/s from the distiller.
func BenchmarkDistil(b *testing.B) {
	cases := measuredCases(b)
	turns := 0
	for _, c := range cases {
		turns += len(c.session.Turns)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		for _, c := range cases {
			_, _ = DistilAll(c.session)
		}
	}
	if used := processCPU() - cpu; used > 0 {
		b.ReportMetric(float64(turns*b.N)/used.Seconds(), "turns/cpu-s")
	}
	b.ReportMetric(float64(turns*b.N)/b.Elapsed().Seconds(), "turns/s")
}
