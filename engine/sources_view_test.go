package engine

import (
	"context"
	"reflect"
	"testing"
)

// TestTx_SourcesViewReadsOnlyItsArchives: a cold engine's SourcesView
// (reject's read) parses only the archives holding the source-ids asked
// (at 1M records reject read the whole workspace: 1,046 MiB, issue 26),
// and answers View.Source for them as the full view does.
func TestTx_SourcesViewReadsOnlyItsArchives(t *testing.T) {
	ctx := context.Background()
	for _, src := range fixtureStates(t) {
		state, warm, full := warmCopy(t, src)
		fv := &View{s: full}
		_ = warm.Close()
		var refs []string
		for _, p := range full.archPaths {
			for _, en := range full.archives[p].sources {
				refs = append(refs, en.ref)
			}
		}
		if len(refs) == 0 {
			continue
		}
		ask := []string{refs[len(refs)/2], "nobody/none/1"}
		e := openCold(t, state)
		err := e.Locked(ctx, true, func(tx *Tx) error {
			v, err := tx.SourcesView(ctx, ask)
			if err != nil {
				return err
			}
			for _, p := range v.s.archPaths {
				if _, holds := full.archives[p].sourceRefs()[ask[0]]; !holds {
					t.Errorf("%s: read %s, which does not hold %s", src, p, ask[0])
				}
			}
			for _, ref := range ask {
				got, ok := v.Source(ref)
				want, wok := fv.Source(ref)
				if ok != wok || !reflect.DeepEqual(got, want) {
					t.Errorf("%s: %s: %+v %v, the full view %+v %v", src, ref, got, ok, want, wok)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if e.partialReads.Load() == 0 {
			t.Errorf("%s: SourcesView read the whole workspace", src)
		}
	}
}

func (a *archiveFile) sourceRefs() map[string]bool {
	refs := map[string]bool{}
	for _, en := range a.sources {
		refs[en.ref] = true
	}
	return refs
}
