#!/bin/bash
# Regenerates the hand-written recordings after the writer's prompt (or
# anything it shows the model) changed: runs the replay test, answers
# each request it misses with the script of that request's session
# (r_<first 4 characters of the session id>.py), and loops. Run from the
# repository root: testdata/distill/model-responses/hand/regen.sh
set -e
export PYTHONDONTWRITEBYTECODE=1
here=testdata/distill/model-responses
dump=$(mktemp -d)
trap 'rm -rf "$dump"' EXIT
rm -f $here/*.json
for i in $(seq 1 20); do
  rm -f "$dump"/*
  out=$(SCRIPTORIUM_EVAL_DUMP="$dump" go test ./engine/writer/ -run TestModelWriter_Replayed -v 2>&1 || true)
  req=$(ls "$dump"/*.request.json 2>/dev/null | head -1)
  if [ -z "$req" ]; then echo "$out" | tail -20; exit 0; fi
  sess=$(python3 -c "import json,re,sys;r=json.load(open(sys.argv[1]));print(re.search(r'\"ref\":\"[^/]+/([^/]+)/',r['messages'][1]['content']).group(1)[:4])" "$req")
  script=$here/hand/r_$sess.py
  if [ ! -f "$script" ]; then echo "no $script for the request saved at $req"; exit 1; fi
  python3 "$script" "$req"
done
echo "still missing answers after 20 rounds"; exit 1
