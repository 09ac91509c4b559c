package writereval

import (
	"strings"
	"testing"
)

func TestLiveFromEnv(t *testing.T) {
	for _, c := range []struct {
		name                               string
		endpoint, model, key, replay, conv string
		ok                                 bool
		err                                string
	}{
		{name: "nothing set"},
		{name: "endpoint without a model", endpoint: "http://127.0.0.1:1/v1", ok: true, err: EnvModel},
		{name: "replay without a model", replay: "/tmp/r", ok: true, err: EnvReplay},
		{name: "both", endpoint: "http://127.0.0.1:1/v1", replay: "/tmp/r", model: "m", ok: true, err: "both"},
		{name: "live", endpoint: "http://127.0.0.1:1/v1", model: "m", key: "sk", conv: " a.txt, ,b.txt", ok: true},
		{name: "replay", replay: "/tmp/r", model: "m", ok: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvEndpoint, c.endpoint)
			t.Setenv(EnvModel, c.model)
			t.Setenv(EnvKey, c.key)
			t.Setenv(EnvReplay, c.replay)
			t.Setenv(EnvConvs, c.conv)
			t.Setenv(EnvRecord, "")
			live, ok, err := LiveFromEnv()
			if ok != c.ok || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
				t.Fatalf("ok %v, err %v; want ok %v, err containing %q", ok, err, c.ok, c.err)
			}
			switch c.name {
			case "live":
				if live.Opts.Upstream != c.endpoint || live.Opts.Key != "sk" || live.Opts.Dir != "" || strings.Join(live.Convs, "|") != "a.txt|b.txt" {
					t.Errorf("live %+v", live)
				}
			case "replay":
				if live.Opts.Upstream != "" || live.Opts.Dir != "/tmp/r" || live.Model != "m" {
					t.Errorf("replay %+v", live)
				}
			}
		})
	}
}
