import sys, lib
r = lib.Req(sys.argv[1])
P = r.session['owner_file']  # the owner's name's file, or people/owner.md when nothing names the owner
N = r.session['owner']
N = N[0].upper() + N[1:]
T = r.session['thread_file']  # the file the prompt names for the session
# The last block cites t024, a turn this conversation does not have (it
# ends at t023): a model miscounting. The anchor is made up as a model
# would, in the right shape.
ref, path, _, date = r.src['t023']
bad = '[%s](%s#source-5e1f0c2a)' % (ref[:-4] + 't024', r.rel(P, path))
body = ''.join('\n' + r.block(P, t, ids) for t, ids in [
  (N + " and Karim are going to Japan for two weeks next April; the budget is about £4,000 for both, not counting flights.", ['t001', 't003']),
  ("Always give " + N + " prices in GBP.", ['t003']),
  (N + " prefers trains to flights wherever possible.", ['t005']),
  (N + " doesn't eat raw fish and is vegetarian.", ['t009', 't013']),
  (N + " will book a ryokan in Hakone for one night, for Karim's birthday on the 18th of April.", ['t017']),
])
label = 'e-' + lib.h('bad' + P, 10)
body += '\nKeep answers to %s plain, without long answers mixed with lots of emoji.[^%s] ^%s\n\n[^%s]: Time: `%s`; Sources: %s\n' % (N, label, lib.h('badblock', 8), label, date, bad)
thread = r.file(T, 'Japan trip', [
  ('Outcome', [("Two weeks in Japan next April: Tokyo, Hakone (a ryokan night for Karim's birthday), Kyoto, Osaka and Hiroshima, by train.", ['t001', 't017', 't020'])]),
])
mine = {"op": "append", "path": P, "content": body}
if P not in r.existing:
    mine = {"op": "create", "path": P, "content": '# %s\n' % N + body}
r.save([mine, {"op": "create", "path": T, "content": thread}],
       note="hand-written refusal case: well-formed edits, but the last block cites chatgpt/…/t024, a turn the conversation does not have; validation must refuse the whole answer (REJECTED, unresolved_source) for this session alone, storing nothing of it")
