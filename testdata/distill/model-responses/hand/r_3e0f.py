import sys, lib
r = lib.Req(sys.argv[1])
P = r.session['owner_file']  # the owner's name's file, or people/owner.md when nothing names the owner
N = r.session['owner']
N = N[0].upper() + N[1:]
T = r.session['thread_file']  # the file the prompt names for the session
owner = r.file(P, N, [
  ('Possessions', [(N + "'s bike is a Genesis Croix de Fer, about 5 years old, with Shimano 105.", ['t001'])]),
  ('Habits', [
    (N + " commutes on the bike every day, 12 km each way.", ['t001', 't003']),
    (N + "'s bike got stolen once before, so " + N + " always locks it with two locks, a D-lock and a cable.", ['t001', 't013']),
  ]),
  ('Places', [(N + " takes the bike to Rusty Spokes in Headingley, who did " + N + "'s brakes last year.", ['t001', 't009'])]),
  ('Instructions', [("Explain bike stuff to " + N + " as to a beginner: " + N + " knows nothing about bikes.", ['t005'])]),
])
thread = r.file(T, 'Bike gears skipping', [
  ('Outcome', [(N + "'s bike gears keep skipping, most likely from a worn chain and cassette; " + N + " will take it to Rusty Spokes in Headingley.", ['t001', 't004', 't009'])]),
])
# The owner's file may be there already (the owner's group chat made it):
# the facts are appended to it, under their own headings.
mine = {"op": "create", "path": P, "content": owner}
if P in r.existing:
    mine = {"op": "append", "path": P, "content": owner.split('\n', 1)[1]}
r.save([mine, {"op": "create", "path": T, "content": thread}],
       note="hand-written for the replay test (no model reachable): a speakerless owner's facts, called what the prompt's SESSIONS line calls the owner, third person, and the thread block")
