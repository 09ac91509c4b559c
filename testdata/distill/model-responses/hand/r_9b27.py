import sys, json, lib
r = lib.Req(sys.argv[1])
# A reply cut off mid-object, as a model that runs out of output tokens
# leaves it: prose, then an edit list that never closes.
P = 'topics/people/owner.md'
start = json.dumps({"edits": [{"op": "create", "path": P, "content": "# The owner\n\n## Reading\n\nThe owner's favourite author is Ursula K. Le Guin; the owner loved The Dispossessed."}]}, ensure_ascii=False)
cut = start[:start.index('Le Guin;') + len('Le Guin;')]
raw = "Here are the memory edits for this conversation about books.\n\n```json\n" + cut
r.save(raw=raw, note="hand-written refusal case: a reply truncated mid-object (no closing brace), which the writer must refuse as MODEL_OUTPUT_INVALID for this session alone, storing nothing of it")
