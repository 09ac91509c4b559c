package enginetest

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"strings"
)

// WriteHashEmbeddings answers an OpenAI-compatible embeddings request for
// inputs the way the tests' fake providers do: each text's words hashed
// into dim buckets (never the zero vector), so equal texts get equal
// vectors and texts sharing words are near.
func WriteHashEmbeddings(w http.ResponseWriter, inputs []string, dim int) {
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var out struct {
		Data []item `json:"data"`
	}
	for i, s := range inputs {
		v := make([]float32, dim)
		for _, word := range strings.Fields(strings.ToLower(s)) {
			h := fnv.New32a()
			h.Write([]byte(word))
			v[h.Sum32()%uint32(dim)]++
		}
		v[0] += 0.5
		out.Data = append(out.Data, item{Index: i, Embedding: v})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}
