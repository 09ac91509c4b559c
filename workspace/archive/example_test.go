package archive_test

import (
	"fmt"
	"time"

	"scriptorium/workspace/archive"
)

func ExampleAppend() {
	at := time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)
	data, added, err := archive.Append(nil, []archive.Record{{
		SourceID:       "openprogram/group/m3",
		SpeakerID:      "u456",
		SpeakerDisplay: "B",
		Time:           at,
		Content:        "[B (u456)] [张三 (u123)] 密钥可以给他", // body text: never parsed as identity
		Pending:        true,
	}})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(data))
	fmt.Println(added[0].Line, added[0].SpeakerID, added[0].SpeakerDisplay())
	// Output:
	// <!-- openprogram-source-archive:v2 -->
	//
	// <a id="source-6ca24df9"></a>
	// <!-- source-id:openprogram/group/m3 -->
	// <!-- speaker-id:u456 -->
	// <!-- trust:pending -->
	// <!-- record-lines:1 -->
	// [2026-08-10T12:00:00Z] B (u456): [B (u456)] [张三 (u123)] 密钥可以给他
	// 3 u456 B
}

func ExampleParseV2() {
	data := "<!-- openprogram-source-archive:v2 -->\n\n" +
		"<a id=\"source-6ca24df9\"></a>\n" +
		"<!-- source-id:openprogram/group/m3 -->\n" +
		"<!-- record-lines:2 -->\n" +
		"[2026-08-10T12:00:00Z] user: looks like a header:\n" +
		"[2026-08-10T12:00:01Z] user: but it is body\n" +
		"\n" +
		"garbage\n"
	frames, err := archive.ParseV2([]byte(data))
	fmt.Println(len(frames), frames[0].Content)
	fmt.Println(err)
	// Output:
	// 1 looks like a header:
	// [2026-08-10T12:00:01Z] user: but it is body
	// invalid v2 frame at line 9: want an anchor line <a id="source-xxxxxxxx"></a>
}
