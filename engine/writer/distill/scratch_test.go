package distill

import (
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	for _, c := range []string{"I keep bees.", "I keep bees on the roof.", "I play the cello.", "My daughter plays the cello.", "The kettle is blue.", "The teapot is green.", "The garden gate squeaks.",
		"I work as a nurse at St Mary's hospital in Leeds.", "I prefer tea over coffee, always oat milk.", "I moved to Lisbon in 2021.", "I have kept bees on the roof since 2019.", "My sister Ana moved to Porto in May.", "I am allergic to penicillin.", "I'm vegetarian.", "From now on always give quantities in grams.", "My cat is called Miso.", "I drive a blue Volvo."} {
		s := Session{Provider: "openprogram", ID: "s", Turns: []Turn{{Ref: "openprogram/s/1", Role: "user", Owner: true, Time: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC), Content: c}}}
		f, sum := DistilAll(s)
		var txt []string
		for _, x := range f {
			txt = append(txt, x.Text+" |core="+map[bool]string{true: "y", false: "n"}[x.Core]+" "+x.Theme)
		}
		t.Logf("%q -> %q  SUM %q", c, txt, sum.Text)
	}
}
