package writereval

import (
	"fmt"
	"os"
	"strconv"
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
)

// Live is the live measurement the environment asks for.
type Live struct {
	Model string
	Opts  ServerOptions
}

// LiveFromEnv reads the live measurement's variables. ok is false when
// EnvEndpoint is unset; an endpoint without a model name is an error.
func LiveFromEnv() (live Live, ok bool, err error) {
	endpoint := os.Getenv(EnvEndpoint)
	if endpoint == "" {
		return live, false, nil
	}
	live.Model = os.Getenv(EnvModel)
	if live.Model == "" {
		return live, true, fmt.Errorf("%s is set but %s is not: name the model to measure", EnvEndpoint, EnvModel)
	}
	live.Opts = ServerOptions{Upstream: endpoint, Key: os.Getenv(EnvKey), Record: os.Getenv(EnvRecord)}
	return live, true, nil
}

// ModelConfig is a state dir's config.toml pointing the writer at the
// OpenAI-compatible endpoint base (a Server's URL + "/v1") with model name.
func ModelConfig(base, name string) string {
	return "[model]\nprovider = \"openai\"\nbase_url = " + strconv.Quote(base) + "\nname = " + strconv.Quote(name) + "\n"
}
