import sys, lib
r = lib.Req(sys.argv[1])
people = {
 'ben-okoro': ('Ben Okoro', [
   ('Family', [("Ben Okoro and Tola's baby, Ada Okoro, was born on 2025-05-06 at 3.2kg.", ['t001'])]),
   ('Work', [("Ben Okoro is on paternity leave for 4 weeks.", ['t007'])]),
   ('Places', [("Ben Okoro is still in Sheffield.", ['t017'])]),
   ('Health', [("Ben Okoro doesn't drink anymore.", ['t035'])]),
 ]),
 'aiyana-reed': ('Aiyana Reed', [
   ('Places', [("Aiyana Reed moved to Glasgow in March for the job.", ['t012'])]),
   ('Work', [("Aiyana Reed is a sound engineer at BBC Scotland, mostly radio drama.", ['t014'])]),
 ]),
 'mei-chen': ('Mei Chen', [
   ('Work', [('Mei Chen is in Manchester: "我现在在曼彻斯特当护士，在儿童医院。"', ['t018'])]),
   ('Habits', [('Mei Chen: "我四月跑完了曼彻斯特马拉松！4小时12分"', ['t040'])]),
 ]),
 'chloe-martin': ('Chloe Martin', [
   ('Work', [
     ("Chloe Martin passed her PhD viva on the 12th of August with minor corrections, after 4 years of coral reef acoustics.", ['t023', 't025', 't043']),
     ("Chloe Martin got the postdoc in Plymouth and starts in October.", ['t048']),
   ]),
   ('Health', [("Chloe Martin is coeliac: gluten free.", ['t036'])]),
 ]),
 'nadia-haddad': ('Nadia Haddad', [
   ('Places', [("Nadia Haddad is in Leeds.", ['t019'])]),
   ('Decisions', [("The reunion is decided for Saturday 6 September in York; Nadia Haddad will book dinner at Rustique for 7pm.", ['t009', 't032'])]),
 ]),
}
# Each person's file is the one the SESSIONS line names (the owner's, or a participant's).
named = set(r.session.get('people_files', {}).values()) | {r.session['owner_file']}
assert {'topics/people/%s.md' % slug for slug in people} <= named, (named, r.session)
edits = []
for slug, (name, sections) in people.items():
    p = 'topics/people/%s.md' % slug
    edits.append({"op": "create", "path": p, "content": r.file(p, name, sections)})
T = 'topics/threads/flat-3b-forever.md'
assert T == r.session['thread_file'], r.session
assert r.session['owner_file'] == 'topics/people/nadia-haddad.md', r.session
edits.append({"op": "create", "path": T, "content": r.file(T, 'Flat 3B forever', [
  ('Outcome', [("Ada Okoro was born, Chloe Martin passed her viva, and the reunion was decided: Saturday 6 September in York, dinner at Rustique for 7pm.", ['t001', 't023', 't043', 't009', 't032'])]),
])})
r.save(edits, note="hand-written for the replay test (no model reachable): a group chat's facts filed per person, third person, the Chinese lines kept in the speaker's words rather than translated (a translation would add words no turn holds)")
