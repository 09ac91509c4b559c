import sys, lib
r = lib.Req(sys.argv[1])
P = 'topics/projects/ledgerline.md'
assert P == r.session['project_file'], r.session
T = r.session['thread_file']  # the file the prompt names for the session
proj = r.file(P, 'ledgerline', [
  ('Commands', [("ledgerline's tests are run with go test -race ./..., which is what CI does.", ['t001'])]),
  ('Conventions', [
    ("ledgerline keeps all the batch state behind the one mutex: sync/atomic is not used there.", ['t009']),
    ("Before a commit, make lint is always run: CI runs golangci-lint with the config in .golangci.yml.", ['t015']),
    ("Commit messages in ledgerline start with the package name, like \"reconcile: ...\".", ['t021']),
  ]),
  ('Decisions', [("The flaky TestReconcileBatch was caused by a data race in markDone; markDone now takes the batch mutex, and the fix is committed as 4e1d2a7.", ['t024'])]),
])
thread = r.file(T, 'ledgerline: the flaky TestReconcileBatch', [
  ('Outcome', [("TestReconcileBatch in internal/reconcile was flaky on CI: a data race in markDone, fixed with the batch mutex, lint clean, committed as 4e1d2a7.", ['t001', 't024'])]),
])
r.save([{"op": "create", "path": P, "content": proj}, {"op": "create", "path": T, "content": thread}],
       note="hand-written for the replay test (no model reachable): the coding session's durable facts, third person, one per block, and its thread block")
