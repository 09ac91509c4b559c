package whatsapp

// The words WhatsApp writes into an export for what is not typed text, in
// the languages this package knows (English and German in full; Spanish,
// French, Portuguese, Italian and Dutch for the markers a memory must not
// take for text: omitted media, attachments, deletions, edits, waiting, and
// the encryption notice). A line in another language that is none of these
// is read as what it looks like: a message, or a system line when it has
// no sender or iOS marked it.

// mediaOmitted is Android's placeholder when media was left out.
var mediaOmitted = []string{
	"<Media omitted>", "<Medien ausgeschlossen>", "<Multimedia omitido>", "<Médias omis>",
	"<Mídia oculta>", "<Arquivo de mídia oculto>", "<Media omessi>", "<Media weggelaten>",
}

// fileAttached is Android's suffix after an attachment's file name.
var fileAttached = []string{
	" (file attached)", " (Datei angehängt)", " (archivo adjunto)", " (fichier joint)",
	" (arquivo anexado)", " (file allegato)", " (bestand bijgevoegd)",
}

// attachedPrefix opens iOS's "<attached: 00000012-PHOTO-....jpg>".
var attachedPrefix = []string{
	"<attached: ", "<Anhang: ", "<adjunto: ", "<pièce jointe: ", "<anexo: ", "<allegato: ", "<bijgevoegd: ",
}

// omitted maps iOS's "image omitted" and its kin to a placeholder kind.
var omitted = []struct{ phrase, kind string }{
	{"image omitted", "photo"}, {"video omitted", "video"}, {"audio omitted", "audio"},
	{"sticker omitted", "sticker"}, {"GIF omitted", "GIF"}, {"document omitted", "file"},
	{"Contact card omitted", "contact"},
	{"Bild weggelassen", "photo"}, {"Video weggelassen", "video"}, {"Audio weggelassen", "audio"},
	{"Sticker weggelassen", "sticker"}, {"GIF weggelassen", "GIF"}, {"Dokument weggelassen", "file"},
	{"Kontaktkarte weggelassen", "contact"},
}

// deleted are whole messages that say a message was deleted (a trailing
// period, which iOS adds, is ignored).
var deleted = []string{
	"This message was deleted", "You deleted this message",
	"Diese Nachricht wurde gelöscht", "Du hast diese Nachricht gelöscht",
	"Se eliminó este mensaje", "Eliminaste este mensaje",
	"Ce message a été supprimé", "Vous avez supprimé ce message",
	"Esta mensagem foi apagada", "Você apagou esta mensagem",
	"Questo messaggio è stato eliminato", "Hai eliminato questo messaggio",
	"Dit bericht is verwijderd", "Je hebt dit bericht verwijderd",
}

// deletedByAdmin opens "This message was deleted by admin Alice".
var deletedByAdmin = []string{"This message was deleted by admin ", "Diese Nachricht wurde vom Admin "}

// waiting opens the placeholder of a message the phone could not decrypt.
var waiting = []string{
	"Waiting for this message", "Warten auf diese Nachricht", "Esperando el mensaje",
	"En attente de ce message", "Aguardando mensagem", "In attesa del messaggio", "Wachten op dit bericht",
}

// edited is the marker after the text of an edited message.
var edited = []string{
	"<This message was edited>", "<Diese Nachricht wurde bearbeitet>", "<Se editó este mensaje.>",
	"<Ce message a été modifié>", "<Mensagem editada>", "<Questo messaggio è stato modificato>",
	"<Dit bericht is bewerkt>",
}

// liveLocation is a shared live location (its position is not exported).
var liveLocation = []string{"live location shared", "Live location shared", "Live-Standort wird geteilt"}

// mapsURLs start a shared location's link, after a "location: " word.
var mapsURLs = []string{"https://maps.google.com/", "https://maps.apple.com/", "https://www.google.com/maps/"}

// pollHead and pollOption are the lines of a poll.
var (
	pollHead   = []string{"POLL:", "UMFRAGE:", "ENCUESTA:", "SONDAGE :", "ENQUETE:", "SONDAGGIO:", "PEILING:"}
	pollOption = []string{"OPTION:", "OPCIÓN:", "OPTION :", "OPÇÃO:", "OPZIONE:", "OPTIE:"}
)

// encryptionNotice opens the notice at the top of every chat.
var encryptionNotice = []string{
	"Messages and calls are end-to-end encrypted",
	"Messages to this group are now secured with end-to-end encryption",
	"Messages to this chat and calls are now secured with end-to-end encryption",
	"Messages you send to this chat and calls are now secured with end-to-end encryption",
	"Nachrichten und Anrufe sind Ende-zu-Ende-verschlüsselt",
	"Los mensajes y las llamadas están cifrados de extremo a extremo",
	"Les messages et les appels sont chiffrés de bout en bout",
	"As mensagens e as chamadas são protegidas com a criptografia de ponta a ponta",
	"As mensagens e chamadas são encriptadas ponto a ponto",
	"I messaggi e le chiamate sono crittografati end-to-end",
	"Berichten en gesprekken worden end-to-end versleuteld",
}

// systemKinds classifies a system line by what it contains, first match
// wins (English and German).
var systemKinds = []struct {
	reason  string
	phrases []string
}{
	{ReasonNumberChange, []string{"changed their phone number", " changed to +", "changed the phone number", "Telefonnummer"}},
	{ReasonPin, []string{"pinned a message", "Nachricht angeheftet", "Nachricht fixiert"}},
	{ReasonCall, []string{"voice call", "video call", "Voice call", "Video call", "Sprachanruf", "Videoanruf"}},
	{ReasonChatChange, []string{
		"created group", "created this group", "changed the subject", "changed the group name", "changed this group's icon",
		"changed the group icon", "deleted this group's icon", "changed the group description", "deleted the group description",
		"changed this group's settings", "changed the settings", "disappearing messages", "Betreff", "Gruppenbild",
		"Gruppenbeschreibung", "Gruppeneinstellungen", "Gruppe „", "selbstlöschende Nachrichten",
	}},
	{ReasonLeave, []string{" left", " removed ", "hat die Gruppe verlassen", "verlassen", "entfernt"}},
	{ReasonJoin, []string{" added ", " joined", "invite link", "was added", "hinzugefügt", "beigetreten", "Einladungslink"}},
}

// systemInName are phrases that mark an Android line as a system line even
// though it has a ": " (a subject or group name can contain one).
var systemInName = []string{
	" changed the subject from ", " changed the subject to ", " created group ", " changed the group name",
	" hat den Betreff", " hat die Gruppe „",
}
