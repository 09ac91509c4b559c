package main

// Hand-written facts of the WeChat family group (Chinese), in the format of
// factsEN. Cross-lingual questions here are English questions about
// Chinese turns.
const factsZH = `
chinese | 妈妈周末要做什么菜? | wechat@2025-01-11: *mama: 周末我做红烧肉和清蒸鱼，你们都回来吃饭 >> zhangmin: 我周末加班，不回去吃饭了
chinese | 林伟的新工作在哪个城市? | wechat@2025-02-14: *linwei: 我下个月去深圳一家做无人机的公司上班
chinese | 今年春节在谁家过? | wechat@2025-01-20: *zhangmin: 今年春节在我家过，大年三十晚上六点开饭
chinese | 张敏的腰怎么了? | wechat@2025-03-02: *zhangmin: 我的腰又疼了，医生说是腰椎间盘突出，要做理疗
chinese | 妈妈的血压怎么样? | wechat@2025-03-18: *mama: 今天量血压一百三十五，医生说还可以，要少吃盐
chinese | 林伟买了什么车? | wechat@2025-04-06: *linwei: 提了一辆比亚迪海豹，电车开起来很安静
chinese | 清明节谁回老家扫墓? | wechat@2025-04-03: *sam: 清明我回不去，林伟和小姨回老家扫墓
chinese | 妈妈在老年大学学会了什么? | wechat@2025-05-11: *mama: 我在老年大学学会了用手机拍短视频
chinese | 晓雨考上了哪所大学? | wechat@2025-07-02: *zhangmin: 好消息！晓雨考上了浙江大学计算机专业
chinese | 谁八月要去云南旅游? | wechat@2025-07-20: *linwei: 八月我和女朋友去云南，大理住三天，丽江住两天
chinese | 妈妈的降压药要吃多久? | wechat@2025-08-05: *mama: 医生开的降压药要一直吃，每天早上一片
chinese | 中秋节订了什么月饼? | wechat@2025-09-01: *zhangmin: 中秋我订了稻香村的月饼，每家两盒
chinese | 林伟的女朋友叫什么名字? | wechat@2025-05-25: *linwei: 给大家介绍一下，我女朋友叫陈静，她是小学老师
chinese | 空调师傅什么时候来修? | wechat@2025-06-18: *mama: 空调师傅说周四上午来修，要换压缩机
chinese | 姥姥的八十大寿在哪里办? | wechat@2025-10-08: *zhangmin: 姥姥八十大寿定在全聚德，十月十八号中午十二点
chinese | 谁在学做酸面包? | wechat@2025-11-02: *sam: 我最近在学做酸面包，第三次终于成功了
chinese | 林伟和陈静的婚礼是哪天? | wechat@2025-12-06: *linwei: 我和陈静的婚礼定在明年五月二十号，在杭州
chinese | 妈妈的手机屏幕摔碎了怎么办? | wechat@2025-02-22: *mama: 手机屏幕摔碎了，林伟说周末带我去换个新的
chinese | 张敏家的小狗叫什么? | wechat@2025-03-30: *zhangmin: 我们家小狗豆豆今天打了疫苗，一点都不怕
chinese | 谁这个月在减肥? | wechat@2025-06-01: *linwei: 我这个月在减肥，晚饭只吃沙拉
chinese | 过年给孩子多少压岁钱? | wechat@2025-01-25: *mama: 压岁钱每个孩子给五百，不要给太多
chinese | 妈妈在哪家医院做的体检? | wechat@2025-09-15: *mama: 上周在市第一医院做了全面体检，结果下周出来
chinese | 林伟的新房装修好了吗? | wechat@2025-10-25: *linwei: 新房装修完了，就等家具到，下个月搬进去
chinese | 谁的航班延误了四个小时? | wechat@2025-11-20: *sam: 我的航班延误了四个小时，晚上十点才到上海
chinese | 张敏最近在追什么电视剧? | wechat@2025-08-22: *zhangmin: 最近在追《繁花》，胡歌演得太好了
chinese | 天冷了妈妈提醒大家注意什么? | wechat@2025-12-01: *mama: 天冷了，大家出门多穿点，老人注意别摔倒
chinese | 冬至包什么馅的饺子? | wechat@2025-12-21: *zhangmin: 冬至我们包饺子，韭菜鸡蛋和猪肉白菜两种馅
chinese | 林伟公司的新产品是什么? | wechat@2025-04-28: *linwei: 我们公司的新产品是农业无人机，可以自动喷洒农药
chinese | 五一谁带晓雨去了故宫? | wechat@2025-05-03: *zhangmin: 五一带晓雨去北京，故宫人太多了，排队两个小时
chinese | 妈妈为什么晚上睡不着? | wechat@2025-11-12: *mama: 最近晚上总是睡不着，可能是下午喝了太多茶

cross-lingual | Where is Lin Wei going for the October holiday? | wechat@2025-09-20: *linwei: 国庆节我们去西安看兵马俑
cross-lingual | What did Mum cook for the Lantern Festival? | wechat@2025-02-12: *mama: 元宵节我煮了芝麻汤圆，给你们留了一些
cross-lingual | How did Xiaoyu do in her first semester? | wechat@2025-12-28: *zhangmin: 晓雨第一学期的成绩出来了，数学考了九十五分
cross-lingual | When does Mum do tai chi? | wechat@2025-04-15: *mama: 我每周二和周四早上在公园打太极拳
cross-lingual | What did Lin Wei say about the weather in Shenzhen? | wechat@2025-06-10: *linwei: 深圳这几天暴雨，地铁都停了
cross-lingual | How much was Mum's new washing machine? | wechat@2025-07-08: *mama: 新洗衣机三千二百块，林伟帮我在网上买的
cross-lingual | What did Sam bring Mum from Japan? | wechat@2025-11-16: *sam: 给妈妈从日本带了一条羊绒围巾和抹茶点心
cross-lingual | Where does Zhang Min have her physiotherapy? | wechat@2025-03-10: *zhangmin: 理疗在中医院做，每周三次
cross-lingual | What does Mum want for her birthday? | wechat@2025-06-25: *mama: 生日不用买东西，全家一起吃顿饭就好
cross-lingual | Where did Lin Wei get engaged? | wechat@2025-08-30: *linwei: 我们在洱海边订婚了！
cross-lingual | What is the family eating on New Year's Eve? | wechat@2025-01-27: *mama: 年夜饭有饺子、鱼、红烧肉和八宝饭
cross-lingual | Why did Zhang Min cancel the weekend trip? | wechat@2025-10-12: *zhangmin: 晓雨发烧了，周末不去杭州了

unanswerable | 林伟的哥哥叫什么名字?
unanswerable | 妈妈去过美国吗?
unanswerable | 张敏会开车吗?
`
