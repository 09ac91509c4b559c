import sys, lib
r = lib.Req(sys.argv[1])
P = 'topics/people/owner.md'
assert P == r.session['owner_file'], r.session
T = r.session['thread_file']  # the file the prompt names for the session
owner = r.file(P, 'The owner', [
  ('Possessions', [("The owner's bike is a Genesis Croix de Fer, about 5 years old, with Shimano 105.", ['t001'])]),
  ('Habits', [
    ("The owner commutes on the bike every day, 12 km each way.", ['t001', 't003']),
    ("The owner's bike got stolen once before, so the owner always locks it with two locks, a D-lock and a cable.", ['t001', 't013']),
  ]),
  ('Places', [("The owner takes the bike to Rusty Spokes in Headingley, who did the owner's brakes last year.", ['t001', 't009'])]),
  ('Instructions', [("Explain bike stuff to the owner as to a beginner: the owner knows nothing about bikes.", ['t005'])]),
])
thread = r.file(T, 'Bike gears skipping', [
  ('Outcome', [("The owner's bike gears keep skipping, most likely from a worn chain and cassette; the owner will take it to Rusty Spokes in Headingley.", ['t001', 't004', 't009'])]),
])
r.save([{"op": "create", "path": P, "content": owner}, {"op": "create", "path": T, "content": thread}],
       note="hand-written for the replay test (no model reachable): a speakerless owner's facts (the prompt names no owner, so 'the owner'), third person, and the thread block")
