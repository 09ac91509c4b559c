package main

import (
	"math/rand/v2"
	"strings"
)

// Filler is the everyday chatter between the facts: templates with slots
// ({name} picks from slots[name]), drawn with the seeded generator. It
// shares much of its vocabulary with the facts on purpose (the car, the
// vet, Biscuit, Postgres, the gym, 饺子), so a question's words are never
// unique to its evidence.

var slots = map[string][]string{
	"meal":    {"lunch", "dinner", "brunch", "breakfast", "a takeaway"},
	"day":     {"Saturday", "Sunday", "Friday", "Thursday", "Monday", "tomorrow", "tonight"},
	"reason":  {"the bus didn't come", "work ran over", "traffic is awful", "Biscuit escaped again", "the car wouldn't start", "Leo lost a shoe"},
	"grocery": {"milk", "bread", "eggs", "oat milk", "coffee", "bananas", "cat food", "kibble for Biscuit", "tomatoes", "butter"},
	"kid":     {"Leo", "Ada"},
	"pet":     {"Biscuit", "Pickle"},
	"place":   {"the park", "the beach", "Gran's", "the library", "the pool", "the market", "the harbour", "the station"},
	"time":    {"6", "7:30", "noon", "lunch", "school pickup", "8pm", "half 5"},
	"thing":   {"dishwasher", "boiler", "washing machine", "fridge", "oven", "car", "bike", "garden hose", "printer"},
	"doc":     {"photos", "the booking", "the recipe", "the address", "the school letter", "the vet bill", "the receipt"},
	"weather": {"grim", "lovely", "wet", "windy", "sunny", "freezing"},
	"service": {"checkout", "payments", "search", "auth", "billing", "the API gateway", "the ingest worker", "notifications"},
	"env":     {"staging", "prod", "the canary", "eu-west", "the test cluster"},
	"job":     {"backup", "nightly export", "reindex", "cert renewal", "log rotation", "cleanup"},
	"dep":     {"the Go toolchain", "Postgres driver", "the Helm chart", "nginx", "the base image", "Terraform"},
	"metric":  {"p99 latency", "disk usage", "error rate", "memory", "queue depth", "CPU"},
	"host":    {"db-2", "web-4", "worker-1", "cache-3", "lb-1"},
	"grade":   {"V3", "V4", "V5", "6a", "6b+", "6c", "7a"},
	"area":    {"cave", "slab wall", "overhang", "comp wall", "kids area", "training board"},
	"crag":    {"the quarry", "Squamish", "the sea cliffs", "Stanage", "the boulders by the lake"},
	"body":    {"forearms", "fingers", "shoulder", "back", "knee", "skin"},
	"book":    {"Piranesi", "Klara and the Sun", "The Left Hand of Darkness", "The Dispossessed", "Annapurna", "the short stories"},
	"snack":   {"crisps", "grapes", "brownies", "cheese", "dumplings", "a lemon cake"},
	"adj":     {"slow", "gorgeous", "confusing", "brilliant", "a bit much", "funny"},
	"month":   {"next month", "June", "September", "the holidays", "spring"},
	"n":       {"2", "3", "4", "5", "8", "12"},
}

var familyFiller = []string{
	"anyone around for {meal} on {day}?", "running late, {reason}", "can someone pick up {grocery} on the way?",
	"{kid} wants to know if {pet} can come to {place}", "lol", "ok", "sounds good", "haha", "thanks!", "leaving now",
	"I'll call Mum after {time}", "the {thing} is making a weird noise again", "who has the spare key for the {thing}?",
	"weather looks {weather} for {day}", "can you send me {doc}?", "{kid} has swimming at {time}", "we're out of {grocery}",
	"parking at {place} is a nightmare", "at {place} with {kid}, back by {time}", "{pet} just stole a sock", "😂",
	"did the vet call back about {pet}?", "Mum says hi", "photo from {place}", "who's doing {meal} {day}?",
	"{kid} finished the homework finally", "the {thing} guy comes {day} between 8 and 12", "yes please",
	"I'll bring {grocery}", "dinner at ours {day}?", "can't, {reason}", "{pet} is asleep on the {thing} again",
}

var opsFiller = []string{
	"deploying {service} to {env}", "{service} latency is up, looking", "PR for {service} is ready for review",
	"standup in 5", "who's on call this week?", "the {job} job failed again", "bumping {dep} in {service}",
	"{env} is green", "retro notes are in the doc", "can someone review my {service} change?", "rolling back {service} on {env}",
	"alert for {metric} on {host} is flapping", "{metric} on {host} looks fine now", "lunch?", "brb", "thanks", "👍",
	"merged", "I'll take the {job} ticket", "{service} dashboards are confusing, I'll tidy them", "quick call about {service}?",
	"the {job} job runs at 2am UTC", "{host} needs a reboot after the kernel patch", "load test on {env} at 3",
	"ticket for {service} is in the backlog", "ok that was me, sorry", "restarted {service} on {host}",
}

var climbingFiller = []string{
	"gym tonight?", "anyone want to belay at {time}?", "the {grade} in the {area} is sandbagged", "new set in the {area}",
	"forecast for {crag} looks {weather}", "my {body} is wrecked", "carpool to {crag} on {day}?", "in", "count me in",
	"can't tonight, {reason}", "who has a spare harness?", "flashed the {grade} in the {area}!", "rest day for my {body}",
	"bringing the rope and quickdraws", "{crag} was {weather} but fun", "the {area} is packed, come later", "😤",
	"project update: still falling off the {grade}", "anyone selling shoes in a 41?", "training board session {day}?",
	"chalk bucket is empty again", "hangboard protocol is killing my {body}",
}

var bookFiller = []string{
	"halfway through {book}", "chapter {n} was {adj}", "who's hosting {month}?", "I'll bring {snack}",
	"the library has {n} copies of {book}", "can we push the meeting a week?", "loved it", "not finished yet, no spoilers",
	"{book} is {adj} so far", "next meeting at mine?", "I might skip this one, {reason}", "what page are we up to?",
	"the ending of {book} though", "adding {book} to the vote list", "ok", "see you all {day}", "📚",
	"the audiobook of {book} is on sale", "I'm on chapter {n}", "who else thought chapter {n} was {adj}?",
}

var wechatSlots = map[string][]string{
	"天气": {"很好", "下雨了", "好冷", "太热了", "有雾", "刮大风"},
	"人":  {"林伟", "小姨", "妈", "晓雨", "姥姥"},
	"地方": {"超市", "医院", "公司", "地铁站", "菜市场", "姥姥家", "机场"},
	"食物": {"饺子", "包子", "红烧肉", "鱼", "月饼", "面条", "火锅"},
	"时间": {"明天", "周末", "今晚", "下午", "下周"},
}

var wechatFiller = []string{
	"今天天气{天气}", "吃饭了吗?", "{人}到家了吗?", "周末有空吗?", "收到", "好的", "哈哈哈", "路上注意安全",
	"{地方}那边堵车了", "我在{地方}", "晚上视频吧", "{食物}很好吃", "{时间}回来吃饭吗?", "👍", "谢谢",
	"给{人}带点{食物}", "{人}说{时间}过来", "我刚从{地方}回来", "早点休息", "记得多喝水", "{时间}我有空",
	"今天买了{食物}", "妈，{时间}我去看你", "{地方}人太多了", "到了说一声",
}

// webThemes are the owner↔assistant sessions: what the owner asks and
// what the assistant answers, by theme.
var webThemes = map[string]struct{ user, asst []string }{
	"cooking": {
		user: []string{"what can I make with leftover {grocery}?", "how do I keep bread from going stale?", "is it worth buying a stand mixer?", "can I freeze cooked rice?"},
		asst: []string{"A frittata or a quick soup uses most leftovers; add whatever herbs you have and season at the end.", "Store it cut side down in a bread bin or freeze slices and toast them straight from frozen.", "Only if you bake weekly; for occasional baking a hand mixer does the same work.", "Yes, cool it quickly, freeze it flat in bags and reheat until piping hot."},
	},
	"paperwork": {
		user: []string{"what receipts should I keep for expenses?", "how long do I keep bank statements?", "can I claim the home office?"},
		asst: []string{"Keep receipts for anything you claim, plus invoices and bank statements, for at least six years.", "Six years is a safe default; keep anything about property longer.", "Usually a flat rate per week is simplest, or a share of bills if you have a dedicated room."},
	},
	"travel": {
		user: []string{"what should I pack for a week in {weather} weather?", "is travel insurance worth it?", "how early should I get to the airport?"},
		asst: []string{"Layers, a light rain jacket, comfortable shoes and one smarter outfit cover most trips.", "For flights and bookings you can't refund it usually pays for itself; check the excess.", "Two hours for short-haul is plenty; three for long-haul or busy periods."},
	},
	"running": {
		user: []string{"how many rest days should I take?", "are carbon plated shoes worth it?", "what should I eat before a long run?"},
		asst: []string{"Most plans use one or two full rest days a week, with easy runs between hard ones.", "They help at race pace; for easy miles a normal trainer is fine and lasts longer.", "Something familiar and easy to digest two hours before, like toast with honey or a banana."},
	},
	"garden": {
		user: []string{"when should I sow {grocery}?", "how often should I water the raised bed?", "what grows in shade?"},
		asst: []string{"Sow indoors in early spring and plant out after the last frost.", "Deeply twice a week is better than a little every day; check the soil a finger deep.", "Ferns, hostas, mint and most leafy greens cope with part shade."},
	},
	"car": {
		user: []string{"how often should the {thing} be serviced?", "what does a yellow engine light mean?", "should I buy an electric car next?"},
		asst: []string{"Follow the service schedule in the handbook; most cars want a service every year or 15,000 km.", "It is a fault code worth reading soon; a flashing light means stop driving.", "If you can charge at home and mostly drive short trips, an electric car usually costs less to run."},
	},
	"code": {
		user: []string{"how do I read a CSV in Python?", "why is my script so slow on big files?", "how should I test this function?"},
		asst: []string{"Use the csv module's DictReader, or pandas.read_csv if you need analysis afterwards.", "Profile it first; reading line by line instead of loading the whole file usually fixes memory problems.", "Write a few table-driven cases: the normal case, an empty input and one malformed row."},
	},
	"network": {
		user: []string{"why is my wifi slow upstairs?", "should I get a mesh system?", "how do I find what's using the bandwidth?"},
		asst: []string{"Walls and distance weaken 5 GHz most; try a different channel or move the router higher.", "Mesh helps in larger or oddly shaped homes; in a flat a well placed router is usually enough.", "The router's admin page usually lists clients and their traffic."},
	},
	"gifts": {
		user: []string{"gift ideas for someone who cooks?", "what do you get a seventy year old?", "is a voucher a lazy present?"},
		asst: []string{"Good knives, a cookbook from their favourite cuisine or a class together.", "Experiences tend to land well: a concert, a day out, or something that makes a hobby easier.", "Not if it is specific to something they love; a general one can feel impersonal."},
	},
	"language": {
		user: []string{"how do I remember Chinese characters?", "are tones really that important?", "how many hours a week should I study?"},
		asst: []string{"Learn the components, use spaced repetition and write each new character a few times.", "Yes, a wrong tone can change the word; shadowing native audio helps a lot.", "Three to five focused hours a week beats one long session."},
	},
	"career": {
		user: []string{"how do I answer the weakness question?", "what should I ask at the end of an interview?", "how do I negotiate salary?"},
		asst: []string{"Pick a real but manageable weakness and show what you do about it.", "Ask about the team's biggest challenge this year and how success is measured in the role.", "Anchor on market data, name a range and leave room for benefits."},
	},
	"budget": {
		user: []string{"how big should an emergency fund be?", "should I overpay the mortgage?", "is a budgeting app worth it?"},
		asst: []string{"Three to six months of essential spending is the usual guide.", "If the rate is higher than what savings earn after tax and you have a buffer, overpaying helps.", "It helps if you review it weekly; the habit matters more than the tool."},
	},
	"japan": {
		user: []string{"do I need cash in Japan?", "is the JR pass still worth it?", "what should I know about onsen etiquette?"},
		asst: []string{"Cards work in cities, but carry some cash for small shops, temples and rural areas.", "Only for long-distance trips on several days; price the individual tickets first.", "Wash before you enter, keep the small towel out of the water and check the tattoo policy."},
	},
	"health": {
		user: []string{"is it bad to use my phone in bed?", "how much caffeine is too much?", "does exercise late at night keep you awake?"},
		asst: []string{"Bright screens late can delay sleep; try a fixed wind-down time without it.", "For most adults about 400 mg a day, and none in the six hours before bed.", "Hard exercise right before bed can; finishing two hours earlier usually doesn't."},
	},
	"holidays": {
		user: []string{"how do I keep the holidays cheap?", "ideas for a quiet New Year?", "how do we split hosting between families?"},
		asst: []string{"Set a budget per person, do a secret Santa and plan meals around what is in season.", "A long walk, a good dinner at home and a film, then bed before the fireworks if you like.", "Alternate years, or split the days so each family gets one main meal."},
	},
	"review": {
		user: []string{"help me write a year in review", "what habits stuck this year?", "how do I set goals for next year?"},
		asst: []string{"Start with highlights by month, then what you learned and what you would drop.", "Look at what you did weekly without thinking about it; those are the habits that stuck.", "Pick two or three, make them specific and schedule the first step."},
	},
}

// fill replaces every {slot} in tmpl with a draw from table.
func fill(r *rand.Rand, tmpl string, table map[string][]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		if vals := table[tmpl[i+1:i+j]]; len(vals) > 0 {
			b.WriteString(vals[r.IntN(len(vals))])
		}
		tmpl = tmpl[i+j+1:]
	}
}
