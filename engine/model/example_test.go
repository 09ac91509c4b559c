package model_test

import (
	"fmt"

	"scriptorium/engine/model"
)

func ExampleExtractJSONObject() {
	answer := "Here are the edits:\n```json\n{\"edits\":[]}\n```\nNothing else changed."
	obj, err := model.ExtractJSONObject(answer)
	fmt.Println(obj, err)
	// Output: {"edits":[]} <nil>
}
