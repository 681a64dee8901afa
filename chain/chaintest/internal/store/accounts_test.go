package store

import (
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// acct stands for chaintest's account record: a value changed in place by
// helpers, and a map a transaction changes in place after Save copied it.
type acct struct {
	ram   int64
	perms map[int]int
}

func cloneAcct(a *acct) *acct {
	cp := *a
	cp.perms = maps.Clone(a.perms)
	return &cp
}

// view is what the accounts hold, compared by value.
func view(t Accounts[acct]) map[antelope.Name]string {
	out := map[antelope.Name]string{}
	for n, a := range t {
		s := ""
		for _, k := range []int{0, 1, 2} {
			if v, ok := a.perms[k]; ok {
				s += string(rune('a'+k)) + string(rune('0'+v))
			}
		}
		out[n] = s + "/" + string(rune('0'+a.ram%10))
	}
	return out
}

// TestAccountsSnapshotAndUndo is a model-based random test of the story
// the chain's blocks and transactions rely on: a snapshot never sees later
// changes (a helper's in place, a transaction's to its saved copy), and
// AccountUndo.Rollback brings back exactly the accounts before the
// transaction, those it created deleted.
func TestAccountsSnapshotAndUndo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 300 {
		live := Accounts[acct]{}
		for n := range antelope.Name(4) {
			if r.IntN(2) == 0 {
				live[n] = &acct{ram: int64(r.IntN(10)), perms: map[int]int{0: r.IntN(10)}}
			}
		}
		snap := live.Snapshot()
		want := view(snap)
		before := view(live)
		var u AccountUndo[acct]
		for range 8 {
			n := antelope.Name(r.IntN(5))
			u.Save(live, n, live[n], cloneAcct)
			switch a := live[n]; {
			case a == nil:
				live[n] = &acct{ram: 7, perms: map[int]int{}}
			case r.IntN(2) == 0:
				a.perms[r.IntN(3)] = r.IntN(10)
			default:
				a.ram++
			}
		}
		if got := view(snap); !maps.Equal(got, want) {
			t.Fatalf("round %d: the snapshot changed: %v, want %v", round, got, want)
		}
		u.Rollback(live)
		if got := view(live); !maps.Equal(got, before) {
			t.Fatalf("round %d: after rollback %v, want %v", round, got, before)
		}
		// A helper's change in place, outside a transaction, reaches
		// neither the snapshot nor a chain restored from it.
		restored := snap.Snapshot()
		for _, a := range live {
			a.ram += 3
		}
		if got := view(snap); !maps.Equal(got, want) {
			t.Fatalf("round %d: the snapshot changed by a helper: %v, want %v", round, got, want)
		}
		if got := view(restored); !maps.Equal(got, want) {
			t.Fatalf("round %d: the restored accounts changed: %v, want %v", round, got, want)
		}
	}
}

type countingFiller struct {
	t     Accounts[acct]
	asked int
}

func (f *countingFiller) FillAccount(n antelope.Name) {
	f.asked++
	if n == 9 {
		f.t[n] = &acct{}
	}
}

// TestAccountsLookupFills checks that a fork's filler is asked only for an
// account not held, and that what it fills is found.
func TestAccountsLookupFills(t *testing.T) {
	live := Accounts[acct]{1: {}}
	f := &countingFiller{t: live}
	if live.Lookup(1, f) == nil || f.asked != 0 {
		t.Fatalf("held account: asked %d", f.asked)
	}
	if live.Lookup(9, f) == nil || f.asked != 1 {
		t.Fatalf("filled account: asked %d", f.asked)
	}
	if live.Lookup(5, f) != nil || f.asked != 2 {
		t.Fatalf("missing account: asked %d", f.asked)
	}
	if live.Lookup(5, nil) != nil {
		t.Fatal("no filler: found a missing account")
	}
}
