package importer

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"scriptorium/engine/sessions"
)

// tiersOf is the stored tier of each sender key of a provider.
func tiersOf(t *testing.T, state, provider string) map[string]map[string]int {
	t.Helper()
	st := openStore(t, state)
	all, err := st.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]int{}
	for _, s := range all {
		if s.Provider != provider {
			continue
		}
		bs, _ := st.Branches(s.Key())
		for _, b := range bs {
			turns, _ := st.PendingTurns(b.Tip, "ws-test")
			for _, n := range turns {
				who := n.SpeakerID
				if who == "" {
					who = n.SpeakerDisplay
				}
				if out[who] == nil {
					out[who] = map[string]int{}
				}
				out[who][n.Tier]++
			}
		}
	}
	return out
}

// TestImport_OwnerAndPaired: --owner and --paired give their senders the
// tier, are stored in config.toml for the provider they were found in,
// and a later import of the provider uses what was stored.
func TestImport_OwnerAndPaired(t *testing.T) {
	state := t.TempDir()
	cfg := filepath.Join(state, "config.toml")
	write(t, cfg, []byte("# mine\n[model]\nprovider = \"offline\"\n"))
	chat := write(t, filepath.Join(t.TempDir(), "result.json"), fixture(t, "transcript", "telegram", "testdata", "forum.json"))
	res, err := importDir(t, state, chat, Options{ConfigPath: cfg,
		Named: Named{Owner: []string{"user4400112233"}, Paired: []string{"user6677889900", "user999"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := TrustLists{Owner: []string{"user4400112233"}, Paired: []string{"user6677889900"}}
	if got := res.Trust["telegram"]; !slices.Equal(got.Owner, want.Owner) || !slices.Equal(got.Paired, want.Paired) || len(res.Trust) != 1 {
		t.Errorf("stored %+v", res.Trust)
	}
	var kinds []string
	for _, w := range res.Warnings {
		kinds = append(kinds, w.Kind)
	}
	if !slices.Equal(kinds, []string{WarnUnknownSender, WarnPending}) || !strings.Contains(res.Warnings[0].Message, `"user999"`) ||
		!strings.Contains(res.Warnings[1].Message, "user7012345678") {
		t.Errorf("warnings %+v", res.Warnings)
	}
	tiers := tiersOf(t, state, "telegram")
	if tiers["user4400112233"][sessions.TierOwner] == 0 || tiers["user6677889900"][sessions.TierPaired] == 0 ||
		tiers["user7012345678"][sessions.TierUnpaired] == 0 || len(tiers["user4400112233"]) != 1 {
		t.Errorf("tiers %v", tiers)
	}
	data, _ := os.ReadFile(cfg)
	if !strings.HasPrefix(string(data), "# mine\n[model]\nprovider = \"offline\"\n") {
		t.Errorf("config.toml lost its own lines:\n%s", data)
	}
	// A later import with the stored choice and nothing named: same tiers,
	// nothing stored again, no warning about the owner.
	var conf struct {
		Trust map[string]TrustLists `toml:"trust"`
	}
	if _, err := toml.Decode(string(data), &conf); err != nil {
		t.Fatal(err)
	}
	again, err := importDir(t, t.TempDir(), chat, Options{ConfigPath: cfg, Senders: SendersOf(conf.Trust)})
	if err != nil || again.Trust != nil || len(again.Warnings) != 1 || again.Warnings[0].Kind != WarnPending {
		t.Errorf("import with the stored choice: %+v, %v", again, err)
	}
}

// TestImport_WhatsAppSenders: WhatsApp senders are named by the name as
// written; the "~" and direction marks WhatsApp adds do not matter. In a
// one-to-one chat the other side, unless paired, is said not to enter
// memory.
func TestImport_WhatsAppSenders(t *testing.T) {
	state := t.TempDir()
	cfg := filepath.Join(state, "config.toml")
	group := write(t, filepath.Join(t.TempDir(), "chat.txt"), fixture(t, "transcript", "whatsapp", "testdata", "android-en-us.txt"))
	res, err := importDir(t, state, group, Options{ConfigPath: cfg,
		Named: Named{Owner: []string{"~\u202fDana Whitfield"}, Paired: []string{"+1 (415) 555-0134"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Trust["whatsapp"]; !slices.Equal(got.Owner, []string{"Dana Whitfield"}) || !slices.Equal(got.Paired, []string{"+1 (415) 555-0134"}) {
		t.Errorf("stored %+v", res.Trust)
	}
	tiers := tiersOf(t, state, "whatsapp")
	if tiers["Dana Whitfield"][sessions.TierOwner] == 0 || tiers["+1 (415) 555-0134"][sessions.TierPaired] == 0 || tiers["Marcus Lee"][sessions.TierUnpaired] == 0 {
		t.Errorf("tiers %v", tiers)
	}

	dm := write(t, filepath.Join(t.TempDir(), "_chat.txt"), fixture(t, "transcript", "whatsapp", "testdata", "ios-en-1to1.txt"))
	res, err = importDir(t, t.TempDir(), dm, Options{Named: Named{Owner: []string{"Priya Raman"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Kind != WarnDirectMessage || !strings.Contains(res.Warnings[0].Message, "Sam Okafor") ||
		!strings.Contains(res.Warnings[0].Message, "will not enter memory") {
		t.Errorf("warnings %+v", res.Warnings)
	}
	res, err = importDir(t, t.TempDir(), dm, Options{})
	if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "no owner is named for whatsapp, so none of the") {
		t.Errorf("no owner: %+v, %v", res.Warnings, err)
	}
}

// TestImport_NoOwnerNamesSenders: a group chat imported with no owner says
// all of it will be pending and names the most active senders, with
// their counts, most active first.
func TestImport_NoOwnerNamesSenders(t *testing.T) {
	chat := write(t, filepath.Join(t.TempDir(), "result.json"), fixture(t, "transcript", "telegram", "testdata", "forum.json"))
	res, err := importDir(t, t.TempDir(), chat, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 {
		t.Fatalf("warnings %+v", res.Warnings)
	}
	w := res.Warnings[0]
	if w.Kind != WarnNoOwner || len(w.Senders) == 0 || w.Senders[0].Messages < w.Senders[len(w.Senders)-1].Messages ||
		!strings.Contains(w.Message, "will be pending review") || !strings.Contains(w.Message, "--owner SENDER") {
		t.Errorf("warning %+v", w)
	}
	total := 0
	for _, c := range res.Chats {
		total += c.Messages
	}
	if !strings.Contains(w.Message, "all "+strconv.Itoa(total)+" message(s)") {
		t.Errorf("the warning does not count the %d messages: %s", total, w.Message)
	}
}
