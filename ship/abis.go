package ship

import (
	"slices"

	"github.com/antelopego/abigen/antelope"
)

// abiHistory is every ABI version of each account the stream has seen:
// the ABI in force at a block is the last one set before it. A fork drops
// the versions its undone blocks set.
type abiHistory struct {
	versions map[antelope.Name][]abiVersion
}

type abiVersion struct {
	from uint32 // the block that set it (0: given at the start)
	abi  []byte // packed; empty: cleared
}

func newABIHistory(initial map[antelope.Name][]byte) *abiHistory {
	h := &abiHistory{versions: map[antelope.Name][]abiVersion{}}
	for acct, abi := range initial {
		h.versions[acct] = []abiVersion{{from: 0, abi: slices.Clone(abi)}}
	}
	return h
}

// at is the ABI account had when block num began.
func (h *abiHistory) at(account antelope.Name, num uint32) ([]byte, bool) {
	vs := h.versions[account]
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].from < num {
			return vs[i].abi, len(vs[i].abi) > 0
		}
	}
	return nil, false
}

// set records that block num set account's ABI.
func (h *abiHistory) set(account antelope.Name, num uint32, abi []byte) {
	vs := h.versions[account]
	for len(vs) > 0 && vs[len(vs)-1].from >= num {
		vs = vs[:len(vs)-1]
	}
	h.versions[account] = append(vs, abiVersion{from: num, abi: slices.Clone(abi)})
}

// undo forgets what blocks from num on set.
func (h *abiHistory) undo(num uint32) {
	for acct, vs := range h.versions {
		for len(vs) > 0 && vs[len(vs)-1].from >= num && vs[len(vs)-1].from > 0 {
			vs = vs[:len(vs)-1]
		}
		h.versions[acct] = vs
	}
}

// record reads the ABI changes of a block that has been handled: the
// account deltas when the request fetched deltas, else the eosio::setabi
// actions of its traces.
func (h *abiHistory) record(b *Block) error {
	if b.Deltas != nil {
		return abiChanges(b.p, b, b.Deltas, func(c abiChange) { h.set(c.account, b.Num, c.abi) })
	}
	var err error
	f := actionFilter{account: eosio, name: setabi}
	b.walkActions(&f, func(a *ActionTrace) bool {
		if acct, abi, ok := setabiData(a.Data); ok {
			h.set(acct, b.Num, abi)
		}
		return true
	}, func(e error) { err = e })
	return err
}

var (
	eosio  = antelope.MustName("eosio")
	setabi = antelope.MustName("setabi")
)

// setabiData reads eosio::setabi's data: {account name, abi bytes}.
func setabiData(data []byte) (antelope.Name, []byte, bool) {
	w := wire{data: data}
	acct := w.name()
	abi := w.bytes()
	return acct, abi, w.end() == nil
}

// ABI returns the packed ABI the action's contract had when the action
// ran, as far as the stream knows it (see Block.ABI): an eosio::setabi
// earlier in the same block counts.
func (a *ActionTrace) ABI() ([]byte, bool) {
	if a.Block == nil {
		return nil, false
	}
	abi, ok := a.Block.ABI(a.Contract)
	if a.Block.Traces == nil {
		return abi, ok
	}
	// A setabi for the contract earlier in the block (rare: scan only the
	// block's setabi actions).
	f := actionFilter{account: eosio, name: setabi}
	own := *a.Block
	own.scratch = nil // the caller may be walking the block's own scratch
	own.walkActions(&f, func(s *ActionTrace) bool {
		if s.GlobalSequence >= a.GlobalSequence {
			return false
		}
		if acct, data, good := setabiData(s.Data); good && acct == a.Contract {
			abi, ok = slices.Clone(data), len(data) > 0
		}
		return true
	}, func(error) {})
	return abi, ok
}
