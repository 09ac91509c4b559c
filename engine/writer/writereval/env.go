package writereval

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The environment of a live measurement: without EnvEndpoint nothing
// reaches a network and the live test skips.
const (
	// EnvEndpoint is an OpenAI-compatible base URL
	// ("http://localhost:11434/v1", "https://api.openai.com/v1").
	EnvEndpoint = "SCRIPTORIUM_EVAL_MODEL_ENDPOINT"
	// EnvModel is the model's name at that endpoint (required with it).
	EnvModel = "SCRIPTORIUM_EVAL_MODEL_NAME"
	// EnvKey is the API key, if the endpoint needs one; it is sent
	// upstream only, never written to a state dir or a recording.
	EnvKey = "SCRIPTORIUM_EVAL_MODEL_KEY"
	// EnvRecord is a directory the live answers are saved to, for replay.
	EnvRecord = "SCRIPTORIUM_EVAL_RECORD"
	// EnvDump is a directory a replayed run saves each request with no
	// recording to, so its answer can be written by hand.
	EnvDump = "SCRIPTORIUM_EVAL_DUMP"
	// EnvReplay, instead of EnvEndpoint, is a directory of recordings
	// (EnvRecord's) to measure again without the model, e.g. after the
	// scorer changed; the prompt must not have changed since.
	EnvReplay = "SCRIPTORIUM_EVAL_REPLAY"
	// EnvConvs limits the measurement to the conversations named (gold
	// file names, comma-separated), to keep a live run short.
	EnvConvs = "SCRIPTORIUM_EVAL_CONVS"
)

// Live is the live measurement the environment asks for.
type Live struct {
	Model string
	Opts  ServerOptions
	// Convs are EnvConvs' names; none means the whole set.
	Convs []string
}

// LiveFromEnv reads the live measurement's variables. ok is false when
// neither EnvEndpoint nor EnvReplay is set; either without a model name,
// or both at once, is an error.
func LiveFromEnv() (live Live, ok bool, err error) {
	endpoint, replay := os.Getenv(EnvEndpoint), os.Getenv(EnvReplay)
	if endpoint == "" && replay == "" {
		return live, false, nil
	}
	if endpoint != "" && replay != "" {
		return live, true, fmt.Errorf("%s and %s are both set: measure a live model or its recordings, not both", EnvEndpoint, EnvReplay)
	}
	live.Model = os.Getenv(EnvModel)
	if live.Model == "" {
		set := EnvEndpoint
		if endpoint == "" {
			set = EnvReplay
		}
		return live, true, fmt.Errorf("%s is set but %s is not: name the model to measure (the recordings' model, for a replay)", set, EnvModel)
	}
	if endpoint != "" {
		live.Opts = ServerOptions{Upstream: endpoint, Key: os.Getenv(EnvKey), Record: os.Getenv(EnvRecord)}
	} else {
		live.Opts = ServerOptions{Dir: replay, Dump: os.Getenv(EnvDump)}
	}
	for _, c := range strings.Split(os.Getenv(EnvConvs), ",") {
		if c = strings.TrimSpace(c); c != "" {
			live.Convs = append(live.Convs, c)
		}
	}
	return live, true, nil
}

// ModelConfig is a state dir's config.toml pointing the writer at the
// OpenAI-compatible endpoint base (a Server's URL + "/v1") with model name.
func ModelConfig(base, name string) string {
	return "[model]\nprovider = \"openai\"\nbase_url = " + strconv.Quote(base) + "\nname = " + strconv.Quote(name) + "\n"
}
