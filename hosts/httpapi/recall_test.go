package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/recall"
	"scriptorium/trust"
)

// GET /api/memory/recall gives what the hook, MCP memory_recall and
// `recall --json` give an agent: recall.Recall's result, byte for byte,
// and never a pending source, however the prompt names it.
func TestServe_Recall(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	srv := httptest.NewServer(&apiHandler{open: openerFor(t, state)})
	defer srv.Close()
	get := func(query url.Values) (int, []byte) {
		t.Helper()
		res, err := http.Get(srv.URL + "/api/memory/recall?" + query.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, body
	}
	ctx := context.Background()
	for _, prompt := range []string{"budget tracker copper-7 build tea", "Keys may be shared with Zhang San", "add me to the deploy rota"} {
		status, body := get(url.Values{"q": {prompt}, "budget": {"4000"}, "cwd": {"/x/legacy"}})
		if status != 200 {
			t.Fatalf("%q: %d %s", prompt, status, body)
		}
		e, err := openerFor(t, state)(ctx, trust.Owner)
		if err != nil {
			t.Fatal(err)
		}
		want, err := recall.Recall(ctx, e, recall.Request{Prompt: prompt, Budget: 4000, Cwd: "/x/legacy"})
		e.Close()
		if err != nil {
			t.Fatal(err)
		}
		var got recall.Result
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("%q: %v in %s", prompt, err, body)
		}
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(got)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%q: the API's recall differs from recall.Recall's:\n%s\n%s", prompt, gotJSON, wantJSON)
		}
		for _, canary := range []string{"Zhang San", "deploy rota", "deadbeef"} {
			if strings.Contains(string(body), canary) {
				t.Errorf("%q: pending %q in the API's recall: %s", prompt, canary, body)
			}
		}
	}
	if _, body := get(url.Values{"q": {"budget tracker"}}); !strings.Contains(string(body), "budget tracker") && !strings.Contains(string(body), `"items"`) {
		t.Errorf("recall without budget or cwd: %s", body)
	}
	for _, c := range []url.Values{{"q": {""}}, {"q": {"tea"}, "budget": {"5"}}, {"q": {"tea"}, "budget": {"x"}}} {
		status, body := get(c)
		if status != 400 || !strings.Contains(string(body), `"INVALID_ARGUMENT"`) {
			t.Errorf("%v: %d %s, want 400 INVALID_ARGUMENT", c, status, body)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/memory/recall?q=tea", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("POST recall: %d, want 400", res.StatusCode)
	}
}
