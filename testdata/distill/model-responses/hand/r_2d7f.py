import sys, re, lib
r = lib.Req(sys.argv[1])
P = 'topics/projects/ledgerline.md'
assert P == r.session['project_file'], r.session
T = r.session['thread_file']  # the file the prompt names for the session
old = r.existing[P].rstrip('\n') + '\n'
# The test command changed "from now on": the block keeps its id, its text
# is replaced, and it cites both turns.
m = re.search(r"^ledgerline's tests are run with go test[^\n]*\[\^(e-[0-9a-f]{10})\] \^([0-9a-f]{8})\n\n\[\^\1\]: Time: `[0-9-]+`; Sources: ([^\n]*)\n", old, re.M)
assert m, 'no test-command block'
text = "ledgerline's tests are run with make test, not go test directly: it sets LEDGERLINE_TEST_DB and runs the integration tests too."
label = 'e-' + lib.h(P + text, 10)
s = r.src['t013']
new_block = '%s[^%s] ^%s\n\n[^%s]: Time: `%s`; Sources: %s, [%s](%s#%s)\n' % (text, label, m.group(2), label, s[3], m.group(3), s[0], r.rel(P, s[1]), s[2])
content = old[:m.start()] + new_block + old[m.end():]
conv = content.index('## Decisions')
add_conv = ''.join('\n' + r.block(P, t, ids) for t, ids in [
  ("ledgerline's errors are wrapped with fmt.Errorf and %w and include the file path; errors.New is not used for anything that can have context.", ['t006']),
  ("ledgerline never panics in library code, and internal/ is library code there.", ['t008']),
  ("ledgerline's default currency is GBP, and its test database runs on port 5433 in docker, not the usual 5432.", ['t017']),
]).lstrip('\n') + '\n'
content = content[:conv] + add_conv + content[conv:]
content = content.rstrip('\n') + '\n\n' + r.block(P, "ledgerline's TOML config parsing moved out of cmd/ledgerline into a new internal/config package (config.Load), used by report, export and serve, so the server can use it too; committed as c71e0fa.", ['t001', 't024'])
thread = r.file(T, 'ledgerline: config parsing moved to internal/config', [
  ('Outcome', [("The TOML config parsing moved from cmd/ledgerline to internal/config; make test and make lint pass, committed as c71e0fa.", ['t001', 't024'])]),
])
r.save([{"op": "replace", "path": P, "content": content}, {"op": "create", "path": T, "content": thread}],
       note="hand-written for the replay test (no model reachable): merged against the existing project file (the test command replaced in its block, which keeps its id and cites both turns; new conventions under their heading), and the thread block",
       fence=True)
