#!/usr/bin/env bash
# Checks `scriptorium mcp` (stdio) and `scriptorium serve` (/mcp) with the
# official TypeScript MCP client. Not part of CI: it installs
# @modelcontextprotocol/sdk from npm into a temporary directory.
#   bash scripts/mcp-ts-check/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'kill "${serve_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/scriptorium" .)
"$work/scriptorium" demo "$work/state" --no-tui >/dev/null
(cd "$work" && npm init -y >/dev/null && npm install --silent @modelcontextprotocol/sdk >/dev/null)
cp "$root/scripts/mcp-ts-check/client.mjs" "$work/"
port=$((20000 + RANDOM % 20000))
"$work/scriptorium" serve --addr "127.0.0.1:$port" --state "$work/state" 2>"$work/serve.log" &
serve_pid=$!
sleep 1
(cd "$work" && node client.mjs "$work/scriptorium" database "$work/state" "http://127.0.0.1:$port/mcp")
