package main

// Hand-written facts in English: one question per line,
//
//	category | question | part | part …
//
// where a part is "session@YYYY-MM-DD: turn >> turn …" and a turn is
// "speaker: text"; a turn starting with "*" is evidence. Parts without
// evidence are distractors placed on their own day. Speakers are the keys
// of people (group chats) or "user"/"asst" (owner↔assistant sessions).
// Everything here is invented for this set.
const factsEN = `
single-hop | What is the wifi password at Alice's new flat? | family@2025-01-18: *alice: wifi at the new flat is LemonTree-42, all caps L and T
single-hop | Which vet does the family take Biscuit to? | family@2025-02-09: *bob: Booked Biscuit in at Harbourside Vet for his booster, Tuesday 4pm
single-hop | What time does the Saturday farmers market close? | family@2025-03-08: alice: anyone want stuff from the farmers market? >> *bob: go early, the farmers market closes at 1pm on Saturdays now
single-hop | What was the root cause of the March checkout outage? | ops@2025-03-12: *priya: postmortem draft is up: root cause of the checkout outage was an expired TLS cert on the payments proxy
single-hop | Which on-call tool is the team switching to? | ops@2025-04-02: *tom: we're moving on-call paging from PagerDuty to Opsgenie at the end of the month
single-hop | What grade was the route Diego sent at the Red River Gorge? | climbing@2025-04-21: *diego: finally sent Fuzzy Undercling at the Red, 11b, on my fourth go
single-hop | Which book did the book club pick for May? | book@2025-04-26: *hana: votes are in, May's book is Piranesi by Susanna Clarke
single-hop | How long should the sourdough rest in the fridge? | w01@2025-01-12: user: how long should I cold-proof sourdough? >> *asst: Cold-proof the shaped dough in the fridge for 12 to 16 hours; longer gives a more sour loaf with a blistered crust.
single-hop | When is Sam's tax return due? | w02@2025-02-03: *user: my accountant says the tax return is due April 30 this year, can you list the documents I need?
single-hop | Which neighbourhood is the Lisbon apartment in? | w03@2025-02-27: *user: we booked an apartment in Alfama for the Lisbon trip, close to the tram 28 stop
single-hop | What is Sam's 10k personal best? | w04@2025-03-20: *user: my 10k personal best is 47:12 from the harbour run last autumn
single-hop | Which tomatoes did Sam plant this year? | w05@2025-04-14: *user: I planted three Sungold and two San Marzano tomatoes in the raised bed
single-hop | How much did the timing belt replacement cost? | w06@2025-05-08: *user: the garage quoted 640 euros for the timing belt replacement on the Corolla
single-hop | Which Python library does the invoice script use to read PDFs? | w07@2025-06-01: *user: the invoice script uses pdfplumber to pull the totals out of the PDFs
single-hop | What is the router's admin address? | w08@2025-06-25: *user: the new router's admin page is at 192.168.8.1 and the login is on the sticker
single-hop | What did Sam buy for Bob's birthday? | w09@2025-07-19: *user: ended up buying Bob a cast iron Dutch oven for his birthday
single-hop | Which textbook is Sam using to learn Chinese? | w10@2025-08-10: *user: I'm using the HSK Standard Course book 2 and its workbook for my Chinese
single-hop | Which company is Sam's job interview with? | w11@2025-09-02: *user: the interview is with Northwind Logistics for a platform engineer role, second round on Thursday
single-hop | How much does Sam save each month for the emergency fund? | w12@2025-09-28: *user: I'm putting 400 a month into the emergency fund until it covers six months of expenses
single-hop | Which ryokan is booked in Kinosaki? | w13@2025-10-20: *user: we reserved two nights at Nishimuraya Honkan in Kinosaki Onsen
single-hop | What bedroom temperature did the assistant recommend? | w14@2025-11-09: user: what temperature should my room be at night? >> *asst: Most people sleep best with the bedroom at 17 to 19 °C and a warm duvet rather than a warm room.
single-hop | Where is the family Christmas dinner this year? | family@2025-11-22: *alice: Christmas dinner is at our place this year, Bob is doing the turkey
single-hop | Which Postgres version is staging on? | ops@2025-05-20: *ines: staging is on Postgres 16 now, prod upgrade window is next Wednesday night
single-hop | What are Diego's new climbing shoes? | climbing@2025-05-15: *diego: got the La Sportiva Skwama in a 41, way more sensitive than my old pair
single-hop | What did Tom think about the ending of Klara and the Sun? | book@2025-03-18: *tom: the ending of Klara and the Sun wrecked me, Klara alone in the yard
single-hop | What is Biscuit allergic to? | family@2025-06-14: *alice: the vet thinks Biscuit is allergic to chicken, we're switching him to salmon kibble
single-hop | Which port does the node exporter listen on? | ops@2025-06-18: *tom: reminder the node exporter listens on 9100, open it in the security group
single-hop | What time is Sam's flight to Osaka? | w13@2025-10-21: *user: the flight to Osaka leaves at 11:35 from gate E7, landing at Kansai the next morning
single-hop | How far should the book club read before the June meeting? | book@2025-05-30: *hana: for June let's read up to chapter 12 of The Left Hand of Darkness
single-hop | What is the name of Sam's physio? | w04@2025-03-21: *user: my physio, Marta Lindqvist, says the knee pain comes from the IT band
single-hop | Which bank is Sam's mortgage with? | w12@2025-09-29: *user: the mortgage is with Harbour Mutual, fixed at 3.1% until 2028
single-hop | What is the code for the gym's back door? | climbing@2025-03-03: *priya: back door code for the gym is 7741, don't share it in the public channel
single-hop | How many people are coming to Easter lunch? | family@2025-04-12: *bob: headcount for Easter lunch is eleven including the kids
single-hop | Where is the team offsite? | ops@2025-09-17: *priya: offsite is confirmed at the Lakehouse in Hallstatt, 22 to 24 October
single-hop | How can Sam stop the basil from bolting? | w05@2025-04-15: user: my basil keeps bolting, what am I doing wrong? >> *asst: Pinch off the flower buds as soon as they appear and harvest from the top, so the plant bushes out instead of flowering.
single-hop | Which Wi-Fi channel fixed the dropouts in the study? | w08@2025-06-26: *user: switching the 5GHz band to channel 149 fixed the dropouts in the study
single-hop | What cake did Alice order for Mum's 70th? | family@2025-08-02: *alice: ordered a lemon and elderflower cake for Mum's 70th from the bakery on Quay Street
single-hop | Where is the wedding reception? | family@2025-05-03: *bob: the reception is at the Grand Pier Hotel, ceremony at the registry office first
single-hop | How many story points is the search migration? | ops@2025-07-08: *ines: we sized the search migration at 13 points, so two sprints
single-hop | What language is Hana learning on Duolingo? | book@2025-07-22: *hana: started Korean on Duolingo, 30 day streak already

multi-hop | What instrument does Priya's daughter play? | climbing@2025-03-09: *priya: can't come Sunday, my daughter Maya has her recital | ops@2025-09-10: *priya: leaving early today, Maya's violin lesson moved to 4pm
multi-hop | Where is Alice's husband flying in June? | book@2025-02-11: *alice: my husband Bob is away a lot this year with the port job | family@2025-05-31: *bob: flying to Rotterdam for the port conference on June 10
multi-hop | What breed is the dog with the ear infection? | family@2025-02-15: *alice: the vet says Biscuit, our beagle, needs to lose a kilo | book@2025-06-03: *alice: sorry I'm late, had to take Biscuit to the vet, his ear infection is back
multi-hop | Which restaurant is Tom's farewell dinner at? | ops@2025-10-28: *ines: booked Tom's farewell dinner at the Portuguese place I keep raving about | w09@2025-07-20: *user: Ines swears Tasca do Porto on Mill Lane is the best Portuguese food in town
multi-hop | How long is Sam's Japan trip? | family@2025-10-25: *sam: we leave for Japan on November 1, so excited | w13@2025-10-22: *user: we fly back from Japan on November 15
multi-hop | What is Diego's sister's job? | climbing@2025-04-05: *diego: my sister Lucía is in town, she might come bouldering with us | family@2025-04-07: *sam: met Lucía at the gym, she's a marine biologist at the aquarium
multi-hop | Which book club member is moving abroad, and where to? | ops@2025-10-01: *tom: handed in my notice, I'm moving to Berlin in December | book@2025-10-12: *tom: I'll still join the book club calls from Berlin!
multi-hop | What is the dress code for Ines's wedding, and when is it? | ops@2025-06-12: *ines: save the date! our wedding is September 13 in Porto | family@2025-08-30: *sam: Ines's wedding dress code is garden formal, I need a linen suit
multi-hop | What did Alice name her kitten and what colour is it? | family@2025-03-29: *alice: we adopted a kitten! her name is Pickle | book@2025-04-10: *alice: Pickle the grey tabby sat on my copy of the book all evening
multi-hop | Where does Hana's brother live now? | book@2025-02-20: *hana: my brother Kenji is visiting from Sapporo this week | climbing@2025-07-12: *hana: Kenji moved from Sapporo to Vancouver last month for his new job
multi-hop | What replaced pdfplumber for the scanned invoices? | w07@2025-06-02: *user: pdfplumber chokes on the scanned invoices, it returns empty text | ops@2025-06-20: *sam: switched the invoice script to pypdfium2 plus tesseract for the scanned ones
multi-hop | How much did the Corolla's brakes and clutch cost? | w06@2025-05-09: *user: new brake pads on the Corolla were 180 euros | family@2025-09-06: *sam: the Corolla needed a new clutch, 900 euros, ouch
multi-hop | Where is Mum's 70th party, and what is Sam bringing? | family@2025-07-26: *bob: Mum's 70th is at the boathouse on August 9 | w09@2025-07-21: *user: my sister sorted the cake for Mum's 70th, I'm in charge of the flowers
multi-hop | Did Sam take the job at Northwind Logistics? | w11@2025-09-03: *user: Northwind's second round went well, they mentioned a December start | ops@2025-10-15: *sam: I'm staying, turned down the Northwind offer, the counter-offer was good
multi-hop | Who is Ines's partner and what is he doing on New Year's Eve? | ops@2025-02-11: *ines: my partner Rui is a sound engineer, he's mixing an album this month | w15@2025-11-30: *user: Ines and Rui invited us for New Year's Eve, Rui is DJing
multi-hop | How did Sam hurt his knee, and is it better now? | climbing@2025-03-15: *sam: tweaked my knee on a drop knee move, sitting out for a bit | w14@2025-11-10: *user: the knee is finally fine after the physio's strengthening plan
multi-hop | What sport does Alice's son play? | family@2025-01-25: *alice: Leo scored twice at football today!! | book@2025-09-09: *alice: my son Leo starts secondary school tomorrow, I'm a wreck
multi-hop | Who takes over Tom's on-call weeks after he leaves? | ops@2025-11-05: *priya: once Tom is gone Ines takes his on-call weeks | w16@2025-12-15: *user: Tom left on Friday, the on-call rota is just three of us now
multi-hop | Did Sam reach his 10k goal? | w04@2025-03-22: *user: my goal is to break 45 minutes for 10k by October | family@2025-10-12: *sam: 44:38 at the city 10k!! goal smashed
multi-hop | Where is the September climbing trip, and is Sam going? | climbing@2025-08-01: *diego: Kalymnos is booked for September, me, Priya and Hana | family@2025-08-20: *sam: can't do Kalymnos with Diego this year, too much on at work
multi-hop | What is Sam's kitchen budget and who is fitting it? | family@2025-05-24: *sam: our kitchen budget is 12k all in, fitting starts in October | w12@2025-09-30: *user: the kitchen fitter is Oakline Joinery, they want a deposit of 2k
multi-hop | Which book did Hana lend to Diego? | climbing@2025-06-21: *hana: Diego you'd love Annapurna by Maurice Herzog | book@2025-06-28: *hana: I lent my copy of Annapurna to my friend from climbing
multi-hop | How much weight did Biscuit lose on the diet? | family@2025-07-05: *bob: Biscuit is down to 14 kilos, the vet is happy | climbing@2025-07-06: *sam: my sister's beagle lost two kilos on his diet, he's furious about it
multi-hop | Who recommended Sam's physio? | climbing@2025-03-16: *priya: see Marta Lindqvist, she fixed my shoulder | w04@2025-03-21: *user: Priya's recommendation worked out, first physio session was great
multi-hop | What food did Sam want to try in Lisbon, and what was the best thing he ate? | w03@2025-02-28: *user: we want to try the custard tarts at Pastéis de Belém | family@2025-03-16: *sam: back from Lisbon, the grilled sardines in Alfama were the best thing I ate

temporal | When did Bob start his new job? | family@2025-02-03: *bob: first day at the harbour authority today, the badge photo is tragic
temporal | When did the checkout go down? | ops@2025-03-11: *tom: checkout is down, payments proxy returning 502s
temporal | When did Priya get her lead belay certification? | climbing@2025-05-04: *priya: passed my lead belay certification this morning!
temporal | When is the Piranesi discussion? | book@2025-05-02: *hana: Piranesi discussion is on May 28 at my place
temporal | When did the kitchen fitters finish? | family@2025-10-30: *sam: kitchen is done! fitters finished this afternoon
temporal | When was the prod Postgres upgrade? | ops@2025-05-28: *ines: prod Postgres 16 upgrade completed overnight, zero errors
temporal | When did Leo break his arm? | family@2025-06-07: *alice: Leo broke his arm at the trampoline park, he's in a cast for six weeks
temporal | When did the ISP replace the router? | w08@2025-06-25: *user: the ISP replaced the router this morning, the new one is a white box
temporal | When was the first frost? | family@2025-10-19: *sam: first frost last night, the dahlias are toast
temporal | When did the Opsgenie cutover happen? | ops@2025-04-30: *tom: Opsgenie cutover done, PagerDuty is switched off
temporal | When did Alice's kitchen flood? | family@2025-09-13: *alice: the dishwasher hose burst and flooded the kitchen, Bob is mopping
temporal | When did Diego get back from Kalymnos? | climbing@2025-09-22: *diego: back from Kalymnos, skin is shredded, best trip ever
temporal | When was Mum's hip surgery? | family@2025-11-05: *alice: Mum's hip surgery went well this morning, she's already asking for tea
temporal | When did Sam run the half marathon? | family@2025-05-18: *sam: half marathon done, 1:44, legs are jelly
temporal | What happened to Bob's bike on March 3? | family@2025-03-04: *bob: someone stole my bike from outside the station yesterday, lock cut clean | family@2025-06-21: bob: new bike lock arrived, the heavy chain one | family@2025-09-27: alice: Bob's bike has a flat again
temporal | What did Priya do on April 19? | climbing@2025-04-20: *priya: yesterday I finally led my first 6c outdoors at the quarry | climbing@2025-04-27: priya: quarry was too wet today, we went home
temporal | Who was sick on June 9? | ops@2025-06-10: *ines: sorry for missing standup yesterday, I was sick with a migraine | ops@2025-02-19: tom: feeling sick, working from home today
temporal | What did Alice bake on July 12? | family@2025-07-13: *alice: the plum cake I baked yesterday is already gone | family@2025-12-13: alice: baking gingerbread with Leo this afternoon | family@2025-04-19: alice: baked hot cross buns, they look wonky
temporal | What did Sam eat on November 7? | family@2025-11-08: *sam: yesterday we had the best kaiseki dinner of my life in Kinosaki | family@2025-04-26: sam: dinner at the new ramen bar was fine, nothing special
temporal | What broke in the office on August 14? | ops@2025-08-15: *tom: the coffee machine broke yesterday and facilities say two weeks for parts | ops@2025-03-26: ines: the coffee machine is leaking again
temporal | What did Diego climb on July 6? | climbing@2025-07-08: *diego: two days ago I did the Grand Wall on the Chief, 10 pitches of splitter cracks
temporal | What did Hana finish reading on September 20? | book@2025-09-21: *hana: finished The Dispossessed yesterday, I need to talk about it | book@2025-10-05: hana: The Dispossessed discussion notes are in the doc
temporal | What went out on December 2? | ops@2025-12-03: *priya: the rate limiter shipped yesterday, error rate is flat | ops@2025-11-18: priya: the rate limiter is in code review
temporal | Who stayed with Alice on the weekend of February 22? | family@2025-02-24: *alice: Bob's parents stayed with us last weekend, the house is finally quiet
temporal | What did Sam do on October 5? | climbing@2025-10-06: *sam: yesterday I did my first multipitch with Diego, four pitches at Stawamus | climbing@2025-06-15: sam: any multipitch plans for the summer?
temporal | What happened at the office on Monday October 13? | ops@2025-10-15: *ines: Monday's fire drill took forever, we stood in the car park for an hour | ops@2025-04-09: tom: fire alarm test at 11, ignore it
temporal | What was Biscuit's vet visit on May 27 about? | family@2025-05-28: *bob: vet yesterday, Biscuit needed two stitches in his paw from broken glass
temporal | What did Priya announce on November 3? | ops@2025-11-04: *priya: as I said at yesterday's all-hands, I'm taking over as team lead in January | ops@2025-01-20: priya: all-hands moved to Thursday
temporal | Which film did Alice watch on August 30? | family@2025-08-31: *alice: the film last night was so good, Past Lives, I cried | book@2025-01-30: alice: has anyone seen Past Lives?
temporal | What did Tom fix on January 21? | ops@2025-01-22: *tom: yesterday I fixed the flaky backup job, it was a cron timezone bug | ops@2025-07-30: tom: the backup job is slow again
temporal | What did Diego do the week after the gym reopened? | climbing@2025-06-02: priya: the gym reopened today after the renovation, the new walls are huge | climbing@2025-06-09: *diego: spent the weekend at the crag in Squamish, my forearms are done
temporal | What did Alice do the weekend after Leo broke his arm? | family@2025-06-15: *alice: took Leo to the aquarium to cheer him up, he loved the octopus
temporal | What was Tom working on the week before he left? | ops@2025-12-08: *tom: last week here, writing handover docs for the backup system
temporal | What did Sam do the day after the half marathon? | family@2025-05-19: *sam: ice bath and a very slow walk to the bakery, nothing else today
temporal | What did Ines do the week after her wedding? | ops@2025-09-22: *ines: I'm in the Azores on honeymoon until Monday, ping Priya until then
temporal | What did the team ship the week after the offsite? | ops@2025-10-30: *priya: the new alerting dashboards are live, thanks all
temporal | What did Bob do the day after his bike was stolen? | family@2025-03-05: *bob: filed a police report and bought a folding one to get to work
temporal | What happened the evening before the Piranesi meeting? | book@2025-05-27: *hana: my oven died, so tomorrow's snacks are crisps only
temporal | What did Sam do the morning after arriving in Kinosaki? | family@2025-11-04: *sam: woke up early and did all seven onsen before breakfast
temporal | Which route did Priya try the weekend before her certification? | climbing@2025-04-28: *priya: tried Orange Crush on lead on Saturday, fell at the crux twice

speaker | What did Bob say about the new sofa? | family@2025-01-11: alice: the new sofa is way too soft, I sink right into it >> *bob: the sofa is fine, the grey matches the rug and it was half price >> sam: the sofa looks comfy in the photo
speaker | What did Priya say about incident reviews? | ops@2025-02-05: tom: incident reviews take too long, can we timebox them >> *priya: incident reviews should be blameless and written within 48 hours, I'll draft a template >> ines: +1 on a template for incident reviews
speaker | What did Hana think of Piranesi? | book@2025-05-29: *hana: Piranesi was a gentle puzzle box, I loved the statues >> tom: Piranesi felt slow for me until the middle >> alice: Piranesi made me want to visit a museum
speaker | What did Diego say about the new holds at the gym? | climbing@2025-06-05: priya: the new holds at the gym are so grippy >> *diego: the new holds are too slopey for my taste, it feels like a comp set >> hana: the new holds look pretty at least
speaker | What did Ines say about the deploy freeze? | ops@2025-12-01: tom: Ines said the deploy freeze starts Friday >> *ines: the deploy freeze starts Thursday noon, not Friday, and ends January 5 >> priya: noted on the deploy freeze
speaker | What did Alice say about the Easter menu? | family@2025-04-05: *alice: for Easter I'll do a lamb shoulder and the potato gratin >> bob: the Easter menu needs something for the kids, maybe pizza >> sam: I'll bring dessert for Easter
speaker | What did Tom suggest for the team lunch? | ops@2025-03-14: ines: team lunch on Friday? >> *tom: team lunch at the dumpling place, they do a set menu for groups >> priya: team lunch anywhere with vegan options please
speaker | What did Sam say about the climbing trip budget? | climbing@2025-07-20: diego: the Kalymnos budget is around 900 each >> *sam: the trip budget is too tight for me this year, maybe a weekend in Fontainebleau instead >> priya: the budget works for me if we share a car
speaker | What did Bob say about the school run? | family@2025-09-08: alice: the school run is chaos this week >> *bob: I'll do the school run Mondays and Thursdays, Alice takes the rest >> sam: the school run sounds brutal
speaker | What did Hana say about the audiobook? | book@2025-02-25: tom: I'm doing the audiobook this month >> *hana: the audiobook narrator ruins the dialogue, read the paper copy >> alice: the audiobook on my commute works for me
speaker | What did Priya say about helmets? | climbing@2025-08-10: diego: helmets at the crag are overkill on sport routes >> *priya: helmets are mandatory on every outdoor trip I organise, no exceptions >> sam: I always wear my helmet anyway
speaker | What did Tom say about the Kubernetes upgrade? | ops@2025-04-16: ines: the Kubernetes upgrade to 1.30 is scheduled >> *tom: the Kubernetes upgrade should wait until after the quarter closes, the ingress changes scare me >> priya: the Kubernetes upgrade plan looks ok to me
speaker | What did Alice say about Mum's present? | family@2025-07-27: bob: Mum's present could be a weekend in the Lakes >> *alice: for Mum's present let's get her a proper reading lamp and large print editions of her favourite books >> sam: present ideas welcome, I'm clueless
speaker | What did Diego say about Fontainebleau? | climbing@2025-03-22: hana: Fontainebleau in spring would be amazing >> *diego: Fontainebleau is only worth it in autumn when the sandstone is dry, spring is too damp >> priya: Fontainebleau flights are cheap in April
speaker | What did Ines say about remote work? | ops@2025-02-26: tom: remote Fridays are great >> *ines: remote work is fine but we need one shared office day for planning >> priya: remote work keeps me sane
speaker | What did Sam say about the book club's next pick? | book@2025-06-30: hana: the next pick could be something shorter >> *sam: I'd vote for a classic for the next pick, maybe The Remains of the Day >> tom: next pick no more sci-fi please
speaker | What did Bob say about the new neighbours? | family@2025-05-10: alice: the new neighbours seem nice >> *bob: the new neighbours have a drum kit and they practise at 7am >> sam: neighbours with a drum kit, my condolences
speaker | What did Priya say about the hiring plan? | ops@2025-08-05: tom: the hiring plan says two engineers in Q4 >> *priya: the hiring plan should put a database specialist first, we keep firefighting Postgres >> ines: the hiring plan needs a budget sign-off
speaker | What did Hana say about chalk? | climbing@2025-09-02: diego: liquid chalk is the only way >> *hana: I switched to chalk balls because the loose chalk cloud makes me cough >> sam: chalk is chalk
speaker | What did Tom say about Berlin apartments? | book@2025-11-07: alice: Berlin apartments are so expensive now >> *tom: Berlin apartments go in hours, I'm taking a furnished sublet for three months first >> hana: good luck with the Berlin apartment hunt
speaker | What did Alice say about the new school uniform? | family@2025-08-25: *alice: the new uniform is 140 quid per kid and the blazer is polyester >> bob: the uniform shop queue was out the door >> sam: school uniforms are a scam
speaker | What did Diego say about Priya's belaying? | climbing@2025-05-06: hana: Priya's belaying has gotten so smooth >> *diego: Priya gives the softest catches in the gym, I only want her belaying me now >> sam: congrats again on the belay cert Priya
speaker | What did Ines say about the coffee machine? | ops@2025-08-28: tom: the coffee machine is back >> *ines: the coffee machine fix lasted one day, it's leaking on the floor again >> priya: the coffee machine needs replacing honestly
speaker | What did Bob say about presents for the kids? | family@2025-12-06: alice: presents for the kids are sorted >> *bob: kids' presents: a microscope for Leo and the Lego harbour set for Ada >> sam: I'll get the kids books as presents
speaker | What did Hana say about moving the book club online? | book@2025-10-20: tom: we could move the book club online when I'm in Berlin >> *hana: an online book club is ok but once a quarter we meet in person at my place >> alice: online works for me with the kids
speaker | What did Tom say about the new laptop? | ops@2025-07-01: ines: the new laptops arrived >> *tom: the new laptop's keyboard is mushy and the battery barely lasts a morning >> priya: the new laptop runs the test suite twice as fast
speaker | What did Alice say about Cornwall? | family@2025-07-30: bob: Cornwall was rainy but fun >> *alice: Cornwall was perfect, the kids learned to surf in Polzeath >> sam: jealous of Cornwall
speaker | What did Diego think of the Skwamas after a month? | climbing@2025-06-28: hana: my Skwamas stretched a lot >> *diego: a month in, the Skwamas are great on overhangs but hurt on slab >> priya: I returned my Skwamas
speaker | What did Sam say about the Postgres upgrade? | ops@2025-05-21: tom: Postgres upgrade next week, fingers crossed >> *sam: I'll run the Postgres upgrade rehearsal on staging Monday and write the rollback steps >> ines: Postgres upgrade comms go out tomorrow
speaker | What did Bob say about the car? | family@2025-09-07: alice: the car is making that noise again >> *bob: the car needs new tyres before winter, I'll book the garage >> sam: my car needed a clutch, I feel your pain
speaker | What did Hana recommend for Japan? | book@2025-10-14: alice: Japan in November sounds lovely >> *hana: for Japan get a Suica card on your phone and eat at the department store food halls >> tom: Japan trip jealousy
speaker | What did Priya say about the pager noise? | ops@2025-09-24: ines: the pager keeps going off for disk alerts >> *priya: the pager noise is from the disk alert threshold, I'll raise it to 90% and add a 10 minute delay >> tom: the pager noise is killing me
speaker | What did Alice say about the plum tree? | family@2025-08-09: sam: my plum tree is loaded this year >> *alice: our plum tree got silver leaf disease, the tree surgeon says it has to come down >> bob: plum tree jam time
speaker | What did Diego say about the membership prices? | climbing@2025-02-10: priya: membership prices are up 15% >> *diego: the membership is still cheaper than the other gym if you pay yearly >> hana: the membership hike is annoying
speaker | What did Tom say about the translation? | book@2025-08-19: hana: the translation reads smoothly >> *tom: the translation flattens the jokes, the German edition is funnier >> alice: the translation seemed fine to me

paraphrase | Who has trouble sleeping? | w14@2025-11-09: *user: I've been lying awake until 3am most nights this month
paraphrase | Which pet needed surgery? | family@2025-10-04: *bob: Biscuit is home after the operation on his leg, groggy but wagging
paraphrase | Who is expecting a baby? | ops@2025-07-15: *ines: Rui and I have news: we're due in March!
paraphrase | What did Sam get so he could stop driving to work? | w06@2025-05-09: *user: picked up a second-hand e-bike so the Corolla can stay parked on weekdays
paraphrase | Who got a promotion? | family@2025-06-28: *bob: they made me head of port operations, starting next month
paraphrase | Which book club member relocated to a new home? | book@2025-03-05: *tom: finally got the keys to the flat in Leith, boxes everywhere
paraphrase | Why is Sam's car unreliable? | w06@2025-05-10: *user: the Corolla won't start on cold mornings, the battery seems weak
paraphrase | How does Sam unwind after work? | w14@2025-11-11: *user: in the evenings I take a long walk along the canal and play some piano
paraphrase | Who doesn't eat meat? | climbing@2025-02-15: *hana: I'm vegetarian, so I'll bring my own food for the hut
paraphrase | What is Alice scared of? | family@2025-06-01: *alice: the spider in the bath nearly gave me a heart attack, Bob had to deal with it
paraphrase | How does Diego travel to the crag? | climbing@2025-04-12: *diego: I ride my motorbike out there, parking is easy
paraphrase | Why did Tom resign? | ops@2025-10-02: *tom: honestly the commute and the rent here were wearing me down, and my partner got a job in Germany
paraphrase | What does Priya do at the weekend? | ops@2025-03-28: *priya: Saturdays are for the allotment, I'm growing beans and squash
paraphrase | Which appliance failed during the summer? | family@2025-07-19: *alice: the fridge died in the heatwave and we lost all the ice cream
paraphrase | What medication is Sam on? | w14@2025-11-10: *user: the doctor put me on melatonin, 2mg an hour before bed
paraphrase | Who is taking driving lessons? | family@2025-10-11: *bob: my nephew Finn passed his theory test and is behind the wheel twice a week now
paraphrase | What new hobby did Sam pick up in the autumn? | family@2025-10-26: *sam: bought a second-hand pottery wheel, my first bowls are very wonky
paraphrase | Where does the team post outage updates? | ops@2025-05-14: *tom: incident comms go out through Statuspage, I'll add you as editors
paraphrase | Who injured their shoulder? | climbing@2025-08-24: *hana: I tore something in my rotator cuff on the campus board, out for a month
paraphrase | How did Sam deal with the noise from upstairs? | w16@2025-12-16: *user: I finally bought proper earplugs and a white noise machine for the flat above situation
paraphrase | Why is Alice cycling less? | family@2025-11-15: *alice: with the dark evenings I've given up riding to work, the roads feel dangerous
paraphrase | How did Sam prepare for the interview? | w11@2025-09-02: *user: I did three mock system design sessions with Priya and reread the SRE book
paraphrase | What does Hana do for a living? | book@2025-01-20: *hana: work is busy, we have three translations due at the publisher this month
paraphrase | Which app does Sam use to track spending? | w12@2025-09-28: *user: I log every expense in YNAB and reconcile it on Sundays
paraphrase | Who can't eat gluten? | family@2025-04-13: *bob: remember my mum is coeliac, so no regular bread at lunch
paraphrase | What does Diego do for work? | climbing@2025-03-01: *diego: long shift at the hospital, three emergency surgeries, I need to pull on plastic
paraphrase | How is Sam getting from Osaka to Kinosaki? | w13@2025-10-22: *user: we'll take the Konotori limited express from Shin-Osaka, about two and a half hours
paraphrase | What is Leo's favourite subject? | family@2025-09-20: *alice: Leo came home raving about science class, they dissected a flower
paraphrase | Whose home is being refurbished? | ops@2025-06-03: *ines: our bathroom is gutted, the tiler comes next week
paraphrase | What does Alice think is the best way to learn a language? | book@2025-07-23: *alice: honestly immersion beats apps, I picked up my Spanish living in Valencia

cross-lingual | 山姆的五公里成绩是多少? | family@2025-06-22: *sam: parkrun this morning in 22:10, new PB
cross-lingual | 谁家的猫把圣诞树推倒了? | family@2025-12-20: *alice: Pickle knocked the Christmas tree over at 3am
cross-lingual | 汤姆在柏林看房是哪天? | ops@2025-11-28: *tom: my Berlin flat viewing is on the 10th, fingers crossed

unanswerable | What is Bob's favourite football team?
unanswerable | When did Priya learn to scuba dive?
unanswerable | What did Diego say about the Boston marathon?
unanswerable | Which dentist does Hana go to?
unanswerable | How much did Alice pay for her piano?
unanswerable | What is the name of Tom's cat?
unanswerable | Where did Sam go skiing in January?
unanswerable | What did Ines say about the cloud cost report?
unanswerable | When is the company's IPO?
unanswerable | What colour is Diego's motorbike?
unanswerable | Which wine did Bob bring to Easter lunch?
unanswerable | What is Sam's blood type?
unanswerable | Who won the book club quiz?
unanswerable | What did the assistant say about investing in gold?
unanswerable | How many pull-ups can Priya do?
unanswerable | What time does the swimming pool open on Sundays?
unanswerable | Which podcast does Alice recommend?
unanswerable | What did Hana say about the Tokyo marathon?
unanswerable | What is the wifi password at the climbing gym?
unanswerable | Where did Tom go to university?
unanswerable | What did Leo get for his birthday in March?
unanswerable | Which airline did Ines fly to the Azores?
`
