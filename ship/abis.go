package ship

import (
	"slices"
	"sort"

	"github.com/antelopego/abigen/antelope"
)

// abiHistory is the ABI versions of each account the stream can still
// need: the ABI in force at a block is the last one set before it. A fork
// drops the versions its undone blocks set; the last irreversible block
// moving drops the versions superseded at or below it, which no undo can
// bring back (prune), so it holds the versions in force at the last
// irreversible block and those set above it.
type abiHistory struct {
	versions map[antelope.Name][]abiVersion
	// sets lists the versions set by blocks, in block order, for prune
	// to visit each once.
	sets []abiSet
	// given are the accounts whose ABIs the application supplied, dated
	// base: the state the stream starts from (the block before its start,
	// or the cursor's last block).
	given []antelope.Name
	base  uint32
	dated bool
	// gaps are blocks the stream did not see, ascending (below the start,
	// after a fork whose depth the node did not say, or a connection
	// dropped while passing over them), nor perhaps some below each: an
	// ABI set at or before one is unknown after it.
	gaps []uint32
}

type abiVersion struct {
	from  uint32 // the block that set it, or base for a given one
	given bool   // supplied by the application (Request.ABIs)
	abi   []byte // packed; empty: cleared
}

type abiSet struct {
	num     uint32
	account antelope.Name
}

func newABIHistory(initial map[antelope.Name][]byte) *abiHistory {
	h := &abiHistory{versions: map[antelope.Name][]abiVersion{}}
	for acct, abi := range initial {
		h.versions[acct] = []abiVersion{{given: true, abi: slices.Clone(abi)}}
		h.given = append(h.given, acct)
	}
	return h
}

// dateGiven dates the given ABIs: they are the state at the end of block
// base. Only the first call counts (the stream's first session).
func (h *abiHistory) dateGiven(base uint32) {
	if h.dated {
		return
	}
	h.dated, h.base = true, base
	for _, acct := range h.given {
		if vs := h.versions[acct]; len(vs) > 0 && vs[0].given {
			vs[0].from = base
		}
	}
}

// at is the ABI account had when block num began (num may be one past the
// last block: the ABI at its end).
func (h *abiHistory) at(account antelope.Name, num uint64) ([]byte, bool) {
	vs := h.versions[account]
	for i := len(vs) - 1; i >= 0; i-- {
		if uint64(vs[i].from) < num {
			for j := len(h.gaps) - 1; j >= 0; j-- {
				if g := uint64(h.gaps[j]); g < num {
					if uint64(vs[i].from) <= g {
						// An unseen block at or below g may have changed
						// it, or the block that set it be of another branch.
						return nil, false
					}
					break
				}
			}
			return vs[i].abi, len(vs[i].abi) > 0
		}
	}
	return nil, false
}

// gap records that the stream did not see block num's ABI changes, nor
// perhaps some below it.
func (h *abiHistory) gap(num uint32) {
	i, found := slices.BinarySearch(h.gaps, num)
	if !found {
		h.gaps = slices.Insert(h.gaps, i, num)
	}
}

// undoGaps: the node sends the blocks from num on again, so gaps there
// are seen — but the unseen blocks they stood for may lie below num: one
// gap at num-1 stands for them.
func (h *abiHistory) undoGaps(num uint32) {
	k := len(h.gaps)
	for k > 0 && h.gaps[k-1] >= num {
		k--
	}
	if k == len(h.gaps) {
		return
	}
	h.gaps = h.gaps[:k]
	if num > 1 {
		h.gap(num - 1)
	}
}

// set records that block num set account's ABI.
func (h *abiHistory) set(account antelope.Name, num uint32, abi []byte) {
	vs := h.versions[account]
	for len(vs) > 0 && vs[len(vs)-1].from >= num {
		vs = vs[:len(vs)-1]
	}
	h.versions[account] = append(vs, abiVersion{from: num, abi: slices.Clone(abi)})
	h.sets = append(h.sets, abiSet{num, account})
}

// undo forgets what blocks from num on set. A given ABI dated num or later
// is forgotten too: the stream cannot tell whether an undone block set it,
// nor what was in force before, so the account's ABI becomes unknown
// until a block sets it.
func (h *abiHistory) undo(num uint32) {
	for len(h.sets) > 0 && h.sets[len(h.sets)-1].num >= num {
		acct := h.sets[len(h.sets)-1].account
		h.sets = h.sets[:len(h.sets)-1]
		h.versions[acct] = dropFrom(h.versions[acct], num)
	}
	h.undoGaps(num)
	if h.dated && h.base >= num && len(h.given) > 0 {
		for _, acct := range h.given {
			h.versions[acct] = dropFrom(h.versions[acct], num)
		}
		h.given = nil
	}
}

func dropFrom(vs []abiVersion, num uint32) []abiVersion {
	for len(vs) > 0 && vs[len(vs)-1].from >= num {
		vs = vs[:len(vs)-1]
	}
	return vs
}

// prune forgets the versions superseded at or below lib, the last
// irreversible block: each account keeps the version in force at lib and
// those set above it.
func (h *abiHistory) prune(lib uint32) {
	for len(h.sets) > 0 && h.sets[0].num <= lib {
		acct := h.sets[0].account
		h.sets = h.sets[1:]
		vs := h.versions[acct]
		i := sort.Search(len(vs), func(i int) bool { return vs[i].from > lib }) - 1 // the one in force at lib
		if i > 0 {
			h.versions[acct] = append(vs[:0], vs[i:]...)
		}
	}
	if len(h.sets) == 0 {
		h.sets = nil // let a long run's backing array go
	}
	// Of the gaps at or below lib, only the last matters to the blocks
	// above it.
	for len(h.gaps) > 1 && h.gaps[1] <= lib {
		h.gaps = h.gaps[1:]
	}
}

// record reads the ABI changes of a block: the account deltas when the
// request fetched deltas, else the eosio::setabi actions of its traces.
func (h *abiHistory) record(b *Block) error {
	if b.Deltas != nil {
		return abiChanges(b.p, b, b.Deltas, func(c abiChange) { h.set(c.account, b.Num, c.abi) })
	}
	ix, err := b.setabiIndex()
	if err != nil {
		return err
	}
	for acct, sets := range ix {
		h.set(acct, b.Num, sets[len(sets)-1].abi)
	}
	return nil
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

// blockSetabi is an eosio::setabi that took effect in a block.
type blockSetabi struct {
	seq uint64 // its global sequence
	abi []byte // the ABI it set (in the block's message)
}

// setabiIndex is the block's eosio::setabi actions by account, in
// execution order, made on first use: one walk of the block's traces,
// whatever the number of questions.
func (b *Block) setabiIndex() (map[antelope.Name][]blockSetabi, error) {
	if b.setabis != nil || b.Traces == nil {
		return b.setabis, b.setabisErr
	}
	b.setabis = map[antelope.Name][]blockSetabi{}
	f := actionFilter{account: eosio, name: setabi}
	own := *b
	own.scratch = nil // the caller may be walking the block's own scratch
	own.walkActions(&f, func(s *ActionTrace) bool {
		if acct, data, ok := setabiData(s.Data); ok {
			b.setabis[acct] = append(b.setabis[acct], blockSetabi{s.GlobalSequence, data})
		}
		return true
	}, func(e error) { b.setabisErr = e })
	for _, l := range b.setabis {
		slices.SortStableFunc(l, func(x, y blockSetabi) int {
			switch {
			case x.seq < y.seq:
				return -1
			case x.seq > y.seq:
				return 1
			}
			return 0
		})
	}
	return b.setabis, b.setabisErr
}

// ABI returns the packed ABI the action's contract had when the action
// ran, as far as the stream knows it (see Block.ABI): an eosio::setabi
// earlier in the same block counts. The block's setabi actions are
// indexed on the first call; each call then costs a lookup. Do not
// modify the result.
func (a *ActionTrace) ABI() ([]byte, bool) {
	if a.Block == nil {
		return nil, false
	}
	abi, ok := a.Block.ABI(a.Contract)
	ix, _ := a.Block.setabiIndex()
	sets := ix[a.Contract]
	if i := sort.Search(len(sets), func(i int) bool { return sets[i].seq >= a.GlobalSequence }); i > 0 {
		abi = sets[i-1].abi
		ok = len(abi) > 0
	}
	return abi, ok
}

// ABI returns the packed ABI the row's contract had at the end of its
// block, as far as the stream knows it: rows are the block's end state,
// so a block that changes the contract's ABI (setcode, setabi, then a
// migration) writes rows of the new one. Package abicodec decodes with
// it: abicodec.New(abi), then TableJSON. Do not modify the result.
func (r *RowChange) ABI() ([]byte, bool) {
	b := r.Block
	if b == nil || b.abis == nil {
		return nil, false
	}
	return b.abis.at(r.Code, uint64(b.Num)+1)
}
