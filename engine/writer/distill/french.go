package distill

// French: chats between French speakers (Québec, France) state their facts
// in French, often without accents ("le docteur dit que j'ai le diabete").
// A French sentence gets its features from the French words below
// (language.go); what it keeps is quoted.

// french is French as the distiller reads it.
var french = newLanguage(language{name: "French", words: frenchWords, elisions: frenchElisions,
	first: frenchFirst, subject: frenchSubject, second: frenchSecond, owned: frenchOwned,
	chatOpeners: frenchChatOpeners, nearFuture: frenchNearFutureRe, date: frenchDateRe},
	frenchThemeWords, nil, frenchStrong, frenchDecision, frenchPlan, frenchLife)

// frenchWords are French function words (and common words) that English
// does not use; "on", "a", "me" and "de" are left out, being English too
// or Spanish and Portuguese.
var frenchWords = map[string]bool{"le": true, "la": true, "les": true, "du": true, "des": true, "est": true,
	"je": true, "avec": true, "pour": true, "une": true, "mon": true, "ma": true, "mes": true, "ton": true,
	"ta": true, "tes": true, "nous": true, "vous": true, "il": true, "elle": true, "ils": true, "elles": true,
	"au": true, "aux": true, "à": true, "et": true, "pas": true, "que": true, "qui": true, "dans": true,
	"chez": true, "cette": true, "ce": true, "sont": true, "ont": true, "fait": true, "suis": true, "tu": true,
	"mais": true, "donc": true, "très": true, "tres": true, "aussi": true, "ici": true, "ça": true, "oui": true,
	"merci": true, "moi": true, "toi": true, "nos": true, "notre": true, "votre": true, "sur": true, "apres": true,
	"après": true, "encore": true, "va": true, "vais": true, "peux": true, "dit": true, "deux": true, "plus": true,
	"un": true, "par": true, "fois": true, "semaine": true, "semaines": true, "jours": true, "ans": true}

// frenchElisions open an elided French word: "j'ai", "l'usine", "c'est".
var frenchElisions = []string{"j'", "l'", "d'", "c'", "qu'", "m'", "t'", "s'", "n'", "jusqu'"}

// frenchThemeWords file a French sentence under a theme, accents and no
// accents both, as chat writes them.
var frenchThemeWords = map[string][]string{
	ThemeWork: {"travail", "travaille", "travailler", "travaillé", "usine", "retraite", "emploi", "poste", "bureau",
		"contrat", "patron", "patronne", "collègue", "collegue", "électricien", "electricien", "infirmier",
		"infirmière", "infirmiere", "job", "congé", "conge", "stage", "école", "ecole", "cours", "examen",
		"salaire", "embauché", "embauche", "démission", "demission", "quart", "horaire"},
	ThemeFamily: {"mère", "mere", "père", "pere", "frère", "frere", "soeur", "sœur", "tante", "oncle", "fils",
		"fille", "mari", "femme", "enfants", "enfant", "bébé", "bebe", "maman", "cousin", "cousine", "famille",
		"mariage", "marié", "mariée", "anniversaire", "blonde", "chum", "grand-mère", "grand-père", "neveu", "nièce",
		"niece", "petits-enfants", "noël", "noel"},
	ThemePlaces: {"chalet", "déménagement", "demenagement", "déménage", "demenage", "déménager", "demenager",
		"appartement", "maison", "quartier", "ville", "loyer", "loué", "loue", "rue", "chez nous", "chez moi",
		"voyage", "condo", "logement", "toit"},
	ThemeHealth: {"docteur", "médecin", "medecin", "diabète", "diabete", "genou", "hanche", "épaule", "epaule",
		"physio", "chirurgie", "opération", "operation", "opéré", "opere", "hôpital", "hopital", "malade",
		"enceinte", "cancer", "allergique", "blessé", "blesse", "cœur", "coeur", "sucre", "médicament", "medicament"},
	ThemePossessions: {"auto", "voiture", "acheté", "achete", "achète", "achetée", "achetee", "vendre", "vente",
		"vendu", "chien", "chat", "bateau", "vélo", "velo", "camion", "maison"},
	ThemeHabits: {"chaque", "par semaine", "par jour", "par mois", "tous les jours", "pêcher", "pecher", "pêche",
		"peche", "poterie", "jardin", "marcher", "courir", "nager", "hockey", "ski", "lire", "cuisine", "saison",
		"chorale", "yoga"},
}

// frenchStrong, frenchDecision, frenchPlan and frenchLife are the French
// counterparts of strongWords, decisionWords, planWords and lifeVerbs.
var (
	frenchStrong   = []string{"diabète", "diabete", "retraite", "enceinte", "chirurgie", "cancer", "marié", "mariée", "décédé", "decede", "fiancé", "fiancée", "allergique"}
	frenchDecision = []string{"décidé", "decide", "décidée", "decidee", "voté", "vote", "choisi", "changement de plan", "on garde", "on le garde"}
	frenchPlan     = []string{"vais", "va", "allons", "prochain", "prochaine", "demain", "bientôt", "bientot", "viens", "vient", "arrive"}
	frenchLife     = []string{"acheté", "achete", "vendu", "déménagé", "demenage", "adopté", "adopte", "commencé", "commence", "fini", "quitté", "quitte", "pris", "donné", "donne", "eu", "gagné", "gagne"}
)

// frenchFirst are the first-person words; frenchSubject those that make
// the speaker the subject ("je", "on", "nous": "on a décidé" is "we
// decided"); frenchSecond the listener as a subject.
var (
	frenchFirst   = map[string]bool{"je": true, "moi": true, "nous": true, "on": true, "mon": true, "ma": true, "mes": true, "notre": true, "nos": true}
	frenchSubject = map[string]bool{"je": true, "nous": true, "on": true}
	frenchSecond  = map[string]bool{"tu": true, "vous": true}
	frenchOwned   = map[string]bool{"mon": true, "ma": true, "mes": true}
)

// frenchChatOpeners open a French reaction, greeting or thanks.
var frenchChatOpeners = []string{"merci", "bravo", "félicitations", "felicitations", "allo", "allô", "salut",
	"bonjour", "bonsoir", "bonne ", "joyeux", "joyeuse", "bienvenue", "tant mieux", "dommage", "désolé", "desole",
	"je sais", "je suis content", "c'est triste", "c'est bien", "c'est beau", "parfait", "super", "enfin", "hâte",
	"hate", "bisous", "quoi", "ah ", "oh ", "ouf", "wow", "pas encore", "tout est beau", "repose", "oublie pas",
	"n'oublie pas", "je dis rien", "je t'aime", "vous êtes", "vous etes", "t'es", "tu es"}

// frenchDiscourse opens a French sentence without adding to it ("Grosse
// nouvelle:", "Petit rappel:", "Et", "Mais"), as discourse does English.
var frenchDiscourse = lazyRegexp(`(?i)^(?:(?:(?:une |la |grosse |petite |bonne |mauvaise |autre )?nouvelle|(?:petit )?rappel|avis|bref|alors)[,:.!]+\s+|(?:et|mais|donc|pis|pis là)[,]?\s+)+`)

// frenchNearFutureRe is the near future of the moment ("je vais porter
// les lampes", "on va voir"): undated, a promise in passing.
var frenchNearFutureRe = lazyRegexp(`\b(?:je vais|on va|nous allons|j'vais)\b`)

// frenchDateRe is a date written in French: "le 9 juin", "21 mai",
// "jusqu'en juin", "jeudi prochain", "en août". reldate reads English
// only; the date counts for the score, it is not resolved.
var frenchDateRe = lazyRegexp(`(?i)\b(?:\d{1,2}(?:er)? |(?:en|jusqu'en|fin|début|debut|mi-|depuis) ?)(?:janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre)\b|\b(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)(?: prochain| dernier)?\b|\b(?:la semaine|le mois|l'an|l'année|l'annee) (?:prochaine?|passée?|passee?|dernière|derniere)\b`)
