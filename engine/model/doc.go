// Package model is the engine's one interface to language models (SPEC §7
// "Model providers") and its network providers: "openai", any
// OpenAI-compatible chat completions endpoint (OpenAI, Ollama, llama.cpp,
// vLLM), and "anthropic", the Messages API.
//
// The built-in deterministic "offline" model lives in the engine, because it
// needs the topic format; New reports ErrOffline for it so the engine can
// substitute its own.
//
// Every failure is an *Error whose Code the writer maps onto its closed set
// of failure codes: MODEL_UNAVAILABLE (retryable: network errors, timeouts,
// 429 and 5xx answers), MODEL_AUTH (401, 403), MODEL_CONFIG (missing or
// wrong settings, 400 and 404 answers) and MODEL_OUTPUT_INVALID (a
// successful answer without usable text). Providers never retry on their
// own: the idle watcher decides when to try again.
package model
