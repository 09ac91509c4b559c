package index_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"scriptorium/engine/index"
)

func Example() {
	tmp, err := os.MkdirTemp("", "index-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)

	ix, err := index.Open(filepath.Join(tmp, "index"))
	if err != nil {
		log.Fatal(err)
	}
	defer ix.Close()

	if ix.NeedsRebuild() {
		err := ix.Rebuild([]index.Doc{
			{ID: "topic:f888f60e", Kind: index.KindTopic, Path: "topics/people/craig.md",
				Anchor: "^f888f60e", Ref: "f888f60e", Visible: true,
				Time: time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC),
				Text: "Craig is building a budget tracker in Flask, due 2024-04-15."},
			{ID: "source:sources/openprogram/_v2/group.md#source-8339b8d3", Kind: index.KindSource,
				Path: "sources/openprogram/_v2/group.md", Anchor: "source-8339b8d3",
				Ref: "openprogram/group/m3", Visible: true,
				Time:      time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC),
				SpeakerID: "u456", SpeakerDisplay: "B", SpeakerLabel: "B (u456)", SpeakerTrusted: true,
				Text: "the budget key can go to him"},
		})
		if err != nil {
			log.Fatal(err)
		}
	}

	hits, err := ix.Search(index.Query{Text: "budget", Speaker: "b (U456)"})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		snippet, complete := index.MakeSnippet("the budget key can go to him", "budget", 12)
		fmt.Println(h.Kind, h.Ref, h.Anchor, h.SpeakerLabel, h.SpeakerTrusted, h.Time.Format(time.RFC3339))
		fmt.Printf("%q %v\n", snippet, complete)
	}
	// Output:
	// source openprogram/group/m3 source-8339b8d3 B (u456) true 2026-08-10T12:00:00Z
	// "budget key" false
}
