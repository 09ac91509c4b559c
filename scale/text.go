package scale

// The vocabulary and the text generator: a conversational head of real
// words (Zipf-drawn), named entities the templates use, a long tail of
// pseudo-words (identifiers, jargon, typos), and Chinese phrases. Every
// draw comes from the one *rand.Rand of a workspace, so the order of the
// calls is part of the output: reorder nothing here without bumping
// Version.

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var (
	genHead = strings.Fields(`the I you to and a it is that of in we for on this
		be have with my do not are just so can but at was will if what me they
		get know think like about up out there all one go now your time he how
		she did it's it's good yes no ok sure then need want when today tomorrow
		back some them work would could should really also still right new more
		see make take check let me us our from got been going any maybe thanks
		well here week day next last night morning after before around over same
		again already later soon call send look find try keep change move start
		stop done fine great nice busy sorry problem issue fix update plan idea
		question answer note list file link photo price cost money ticket order
		meeting lunch dinner coffee train flight car home office phone email
		message group weekend monday tuesday wednesday thursday friday saturday
		sunday april may june july august september october november december
		january february march book booked booking confirm confirmed cancel
		schedule scheduled remind reminder deadline release deploy deployed build
		server database backup logs error alert disk memory cpu network api bug
		test tests review merge branch version config cache queue latency outage
		restart rollback migration script dashboard metrics budget invoice
		receipt payment rent bill doctor dentist appointment medicine pharmacy
		gym run running training race pace knee shoes groceries milk bread eggs
		rice vegetables chicken fish recipe cook cooking birthday party gift cake
		kids school homework teacher vacation trip hotel room beach mountain
		museum weather rain snow sunny cold warm late early quick slow long short`)

	genPeople = []string{"Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace",
		"Heidi", "Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy", "Rupert",
		"Sybil", "Trent", "Uma", "Victor", "Walter", "Xena", "Yusuf", "Zoe",
		"Priya", "Tom", "Mei", "Kenji", "Lena", "Omar", "Sofia", "Diego", "Anya",
		"Craig", "Hana", "Ravi", "Nora", "Felix", "Ines", "Jonas", "Kira"}
	genPeopleZH = []string{"张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊", "赵敏",
		"黄强", "周杰", "吴丽", "徐明", "孙悦", "马超", "朱琳", "胡斌", "郭婷"}
	genProjects = []string{"budget tracker", "homelab", "garden irrigation",
		"photo archive", "kitchen remodel", "tax return", "wedding plans",
		"half marathon", "mandarin lessons", "billing service", "search index",
		"mobile app", "data pipeline", "onboarding docs", "release train",
		"postgres upgrade", "kubernetes cluster", "blog redesign", "podcast",
		"book club", "car repair", "moving house", "school fundraiser",
		"cat adoption", "solar panels", "invoice export", "auth service"}
	genPlaces = []string{"Lisbon", "Kyoto", "Osaka", "Berlin", "Toronto",
		"Seattle", "Austin", "Porto", "Shanghai", "Chengdu", "Hangzhou", "Denver",
		"the office", "the cafe", "the gym", "the park", "the airport"}
	genFoods = []string{"ramen", "dumplings", "tacos", "pho", "sushi", "pizza",
		"curry", "noodles", "salad", "hotpot", "bagels", "pancakes"}
	genTech = []string{"postgres", "redis", "nginx", "kafka", "grafana",
		"prometheus", "terraform", "docker", "systemd", "sqlite", "bleve",
		"golang", "python", "rust", "react", "webpack", "cron", "s3"}

	genZH = strings.Fields(`我们 明天 今天 下午 晚上 早上 开会 记得 带 吃饭 火车票
		飞机 酒店 预订 生日 礼物 医院 体检 奶奶 妈妈 爸爸 孩子 学校 作业 老师
		周末 春节 回家 饺子 红包 项目 上线 服务器 数据库 备份 报错 修复 测试
		发布 预算 发票 付款 房租 搬家 装修 厨房 猫粮 兽医 跑步 比赛 训练 膝盖
		天气 下雨 太冷 已经 还没 需要 可以 没问题 谢谢 好的 知道 看看 一下 时间
		地址 电话 照片 链接 文件 价格 便宜 太贵 取消 确认 改到 提前 推迟 完成`)
	genProjectsZH = []string{"记账软件", "家庭服务器", "花园浇水", "相册整理",
		"厨房装修", "报税", "婚礼", "半程马拉松", "中文课", "计费系统", "搜索索引"}
	genPlacesZH = []string{"上海", "成都", "杭州", "北京", "京都", "大阪",
		"公司", "咖啡馆", "健身房", "公园", "机场", "人民医院"}
)

// genTail is a long tail of pseudo-words: ticket numbers, hosts, jargon.
func genTail(r *rand.Rand, n int) []string {
	syll := []string{"ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "ve", "da",
		"gu", "shi", "zen", "tor", "bel", "qua", "nix", "ram", "fen", "lux"}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var w string
		switch r.IntN(6) {
		case 0:
			w = fmt.Sprintf("ticket-%d", 1000+r.IntN(9000))
		case 1:
			w = fmt.Sprintf("v%d.%d.%d", r.IntN(4), r.IntN(20), r.IntN(30))
		default:
			var b strings.Builder
			for range 2 + r.IntN(3) {
				b.WriteString(syll[r.IntN(len(syll))])
			}
			w = b.String()
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// textGen draws message and block texts.
type textGen struct {
	r          *rand.Rand
	head, tail []string
	zh         []string
	zHead      *rand.Zipf
	zTail      *rand.Zipf
	zZH        *rand.Zipf
}

func newTextGen(r *rand.Rand) *textGen {
	g := &textGen{r: r, head: genHead, tail: genTail(r, 6000), zh: genZH}
	g.zHead = rand.NewZipf(r, 1.2, 3, uint64(len(g.head)-1))
	g.zTail = rand.NewZipf(r, 1.05, 10, uint64(len(g.tail)-1))
	g.zZH = rand.NewZipf(r, 1.1, 3, uint64(len(g.zh)-1))
	return g
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// filler appends n words of everyday chatter, one in eight from the tail.
func (g *textGen) filler(b *strings.Builder, n int) {
	for range n {
		b.WriteByte(' ')
		if g.r.IntN(8) == 0 {
			b.WriteString(g.tail[g.zTail.Uint64()])
		} else {
			b.WriteString(g.head[g.zHead.Uint64()])
		}
	}
}

func (g *textGen) fillerZH(b *strings.Builder, n int) {
	for range n {
		b.WriteString(g.zh[g.zZH.Uint64()])
		if g.r.IntN(5) == 0 {
			b.WriteString("，")
		}
	}
}

var (
	weekdays  = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	genMonths = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// english returns one English chat message.
func (g *textGen) english(who string) string {
	r := g.r
	var b strings.Builder
	switch r.IntN(10) {
	case 0:
		fmt.Fprintf(&b, "%s is moving the %s deploy to %s", pick(r, genPeople), pick(r, genProjects), pick(r, weekdays))
	case 1:
		fmt.Fprintf(&b, "did anyone check the %s logs for the %s? the %s keeps failing", pick(r, genTech), pick(r, genProjects), pick(r, genTech))
	case 2:
		fmt.Fprintf(&b, "I'll grab %s on the way to %s", pick(r, genFoods), pick(r, genPlaces))
	case 3:
		fmt.Fprintf(&b, "reminder: %s's birthday is on %s %d", pick(r, genPeople), pick(r, genMonths), 1+r.IntN(28))
	case 4:
		fmt.Fprintf(&b, "the %s budget is %d dollars, %s approved it", pick(r, genProjects), 50*(1+r.IntN(200)), pick(r, genPeople))
	case 5:
		fmt.Fprintf(&b, "can we move the meeting to %d:%02d? %s has a conflict with the %s", 8+r.IntN(10), 15*r.IntN(4), pick(r, genPeople), pick(r, genProjects))
	case 6:
		fmt.Fprintf(&b, "%s prefers %s over %s, book the place in %s", pick(r, genPeople), pick(r, genFoods), pick(r, genFoods), pick(r, genPlaces))
	case 7:
		fmt.Fprintf(&b, "flight to %s lands at %d:%02d, %s will pick us up", pick(r, genPlaces), r.IntN(24), 5*r.IntN(12), pick(r, genPeople))
	case 8:
		fmt.Fprintf(&b, "%s upgraded %s to %s and the %s alert stopped", who, pick(r, genTech), g.tail[g.zTail.Uint64()], pick(r, genTech))
	default:
		b.WriteString(g.head[g.zHead.Uint64()])
	}
	g.filler(&b, 3+r.IntN(25))
	return b.String()
}

// chinese returns one Chinese chat message.
func (g *textGen) chinese() string {
	r := g.r
	var b strings.Builder
	switch r.IntN(5) {
	case 0:
		fmt.Fprintf(&b, "%s说%s要在%d月%d号之前完成，", pick(r, genPeopleZH), pick(r, genProjectsZH), 1+r.IntN(12), 1+r.IntN(28))
	case 1:
		fmt.Fprintf(&b, "明天下午%d点在%s开会，记得带电脑。", 1+r.IntN(6), pick(r, genPlacesZH))
	case 2:
		fmt.Fprintf(&b, "%s的%s又报错了，", pick(r, genPeopleZH), pick(r, genProjectsZH))
	case 3:
		fmt.Fprintf(&b, "周末去%s吃火锅吧，", pick(r, genPlacesZH))
	}
	g.fillerZH(&b, 4+r.IntN(14))
	if r.IntN(4) == 0 {
		// Mixed-script messages are common in real chats.
		fmt.Fprintf(&b, " %s %s", pick(r, genTech), g.tail[g.zTail.Uint64()])
	}
	return b.String()
}

// assistant returns a longer assistant answer, sometimes over several lines.
func (g *textGen) assistant() string {
	r := g.r
	var b strings.Builder
	fmt.Fprintf(&b, "Here is what I found about the %s:", pick(r, genProjects))
	g.filler(&b, 20+r.IntN(60))
	if r.IntN(3) == 0 {
		b.WriteString("\n\n- ")
		g.filler(&b, 8)
		b.WriteString("\n- ")
		g.filler(&b, 8)
	}
	return b.String()
}
