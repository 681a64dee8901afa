package fork

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
	"github.com/antelopego/abigen/model"
)

// A forked chain's state is filled lazily: execution's Engine.Account and
// Engine.Contract (through exec.Fork) and the store's table lookups are
// the one seam. What a fork has not yet asked the
// live chain for is fetched the first time anything (a transaction, a
// read, the Go API) looks it up, and installed as the state at the fork
// block: in the current state, in every block's saved state (for
// Rollback, the state service and state history) and in the snapshot of
// the transaction under way, so that nothing rolls it back. From then on
// it is local like everything else; writes never leave the process.

// Chain is the forked chain as the fork fills it: its execution engine
// (accounts, contracts, ABIs, tables, the transaction's snapshot), the
// state outside the tables each block saved (nil: pruned), and the tables
// at the end of each block.
type Chain interface {
	Engine() *exec.Engine
	SavedStates() []*exec.State
	SavedTables() []*store.DB
}

// State is a forked chain's link to the live chain: store.Filler,
// store.AccountFiller and exec.Fork, filling the chain's state as it is
// looked up. The chain serializes every call (it holds its lock).
type State struct {
	src   Source
	live  *Live // nil when offline
	cache *Cache
	point Point
	chain Chain // set by Attach

	accounts  map[antelope.Name]bool      // asked; true: the live chain has it
	contracts map[antelope.Name]error     // asked; the error a load keeps giving
	noABI     map[antelope.Name]bool      // contracts with code and no ABI at the live chain: tables unreadable
	units     map[store.TableID]*forkUnit // by primary table (low four bits clear)

	failure error // the last lookup that could not be answered, for the operation under way
	// fetches counts the answers asked of the source: a transaction that
	// fetched has spent network time within its deadline (exec's Execute runs it
	// again, with what it fetched in place).
	fetches int
	newer   []NewerCode
	// retry lists the tables whose fetch failed in the operation under
	// way: forgotten when it ends, so that the next operation asks again
	// (the network may answer then) and this one does not ask at every
	// lookup.
	retry []store.TableID
}

// forkUnit is a table in one scope with its secondary index tables, as
// fetched.
type forkUnit struct {
	err error          // the fetch failed: every lookup fails
	bad map[int]string // secondary index positions that cannot be read, and why
	// undeclared: the ABI describes no keys, so whether the table has
	// secondary indexes, and of which types, is unknown.
	undeclared bool
	declared   int                    // len(key_types)
	empty      bool                   // no such table at the fork block: every index is empty
	kinds      map[int]wasm.IndexKind // the index type of each rebuilt position
}

// NewerCode is a contract whose code at the live chain was set after the
// fork block: its code at the fork block is not available, and the fork
// refuses to run the newer one in its place.
type NewerCode struct {
	Account     antelope.Name // the contract
	CodeUpdated time.Time     // the account's last_code_update at the node
	ForkBlock   uint32        // the fork block
	ForkTime    time.Time     // its time
}

// String says what is newer than what.
func (n NewerCode) String() string {
	return fmt.Sprintf("the code of %s was set at %s, after the fork block %d (%s)", n.Account,
		n.CodeUpdated.Format(time.RFC3339Nano), n.ForkBlock, n.ForkTime.Format(time.RFC3339Nano))
}

// Open links a fork to the live chain (and its cache) of f and reads the
// fork block; Attach gives it the chain it fills.
func Open(f Config) (*State, error) {
	if f.NodeURL == "" && !f.Offline {
		return nil, &exec.ForkError{Msg: "Remote.NodeURL is empty"}
	}
	if f.Offline && f.Cache == "" {
		return nil, &exec.ForkError{Msg: "an offline fork needs Remote.Cache"}
	}
	fs := &State{accounts: map[antelope.Name]bool{}, contracts: map[antelope.Name]error{}, noABI: map[antelope.Name]bool{}, units: map[store.TableID]*forkUnit{}}
	kind := "nodeos"
	switch {
	case f.StateURL != "":
		kind = "state"
	case f.Offline && f.NodeURL == "":
		kind = "" // the cache's
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !f.Offline {
		fs.live = NewLive(f)
		fs.src = fs.live
	}
	if f.Cache != "" {
		cache, p, err := OpenCache(ctx, f.Cache, kind, f.Block, fs.live)
		if err != nil {
			return nil, &exec.ForkError{Msg: err.Error()}
		}
		fs.cache, fs.src, fs.point = cache, cache, p
		return fs, nil
	}
	p, err := fs.live.Point(ctx)
	if err != nil {
		return nil, &exec.ForkError{Msg: "the fork block: " + err.Error()}
	}
	fs.point = p
	return fs, nil
}

// Attach gives the fork the chain it fills, before any lookup.
func (f *State) Attach(c Chain) { f.chain = c }

// Point is the fork block.
func (f *State) Point() Point { return f.point }

// Stats counts the HTTP requests sent to the live chain (retries
// included), the bytes of their answers' bodies, and the answers replayed
// from the cache.
func (f *State) Stats() (requests, bytes, cached int64) {
	if f.live != nil {
		requests, bytes = f.live.Requests(), f.live.Bytes()
	}
	if f.cache != nil {
		cached = f.cache.Hits()
	}
	return requests, bytes, cached
}

// NewerCode lists the contracts found so far whose code at the live chain
// is newer than the fork block.
func (f *State) NewerCode() []NewerCode { return slices.Clone(f.newer) }

// Fetches is how many answers the fork has asked its source for.
func (f *State) Fetches() int { return f.fetches }

// Fail records what a lookup could not answer: the operation under way
// fails with it.
func (f *State) Fail(err error) {
	f.failure = err
}

// TakeFailure returns and clears the failure of the operation under way.
func (f *State) TakeFailure() error {
	err := f.failure
	f.failure = nil
	for _, u := range f.retry {
		delete(f.units, u)
	}
	f.retry = nil
	return err
}

func (f *State) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), time.Minute)
}

// FillAccount fetches account n the first time it is looked up.
func (f *State) FillAccount(n antelope.Name) {
	if _, asked := f.accounts[n]; asked || n == 0 {
		return
	}
	ctx, cancel := f.ctx()
	defer cancel()
	f.fetches++
	raw, err := f.src.Account(ctx, n)
	if err != nil {
		f.Fail(&exec.ForkError{Msg: "account " + n.String() + ": " + err.Error()})
		return // asked again next time: the network may answer then
	}
	if raw == nil {
		f.accounts[n] = false
		return
	}
	a, err := forkedAccount(n, raw, f.point.Time)
	if err != nil {
		f.Fail(&exec.ForkError{Msg: "account " + n.String() + ": " + err.Error()})
		return
	}
	// nodeos answers as of its head: an account created after the fork
	// block did not exist at it.
	f.accounts[n] = !a.Created.After(f.point.Time)
	if !f.accounts[n] {
		return
	}
	f.chain.Engine().Accounts[n] = a
	for _, s := range f.chain.SavedStates() {
		if s != nil && s.Accounts[n] == nil {
			cp := *a
			s.Accounts[n] = &cp
		}
	}
}

// forkedAccount is get_account's answer as a chaintest account: its
// permissions and their links (nodeos 3.1+ lists linked_actions), RAM
// quota and usage, privilege and dates. CPU and NET are unlimited, as for
// every chaintest account until SetResources.
func forkedAccount(n antelope.Name, raw json.RawMessage, forkTime time.Time) (*exec.Account, error) {
	ca, err := chain.DecodeAccount(raw)
	if err != nil {
		return nil, err
	}
	if ca.AccountName != n {
		return nil, fmt.Errorf("get_account answered account %s", ca.AccountName)
	}
	var extra struct {
		Created        antelope.TimePoint `json:"created"`
		LastCodeUpdate antelope.TimePoint `json:"last_code_update"`
		Permissions    []struct {
			PermName      antelope.Name        `json:"perm_name"`
			LinkedActions *[]exec.LinkedAction `json:"linked_actions"`
		} `json:"permissions"`
		AnyLinkedActions *[]exec.LinkedAction `json:"eosio_any_linked_actions"`
	}
	if err := json.Unmarshal(raw, &extra); err != nil {
		return nil, err
	}
	// A node that does not list the links (nodeos before Leap 4.0) does
	// not say there are none: the account's linkauths are unknown, and a
	// fork without them authorizes otherwise than the live chain.
	if extra.AnyLinkedActions == nil {
		return nil, fmt.Errorf("the node's get_account lists no eosio_any_linked_actions (a nodeos before Leap 4.0?): its linkauths are unknown")
	}
	for _, p := range extra.Permissions {
		if p.LinkedActions == nil {
			return nil, fmt.Errorf("the node's get_account lists no linked_actions for permission %s (a nodeos before Leap 4.0?): its linkauths are unknown", p.PermName)
		}
	}
	a := exec.NewAccount(ca.AccountName, exec.EmptyAuthority(), exec.EmptyAuthority(), extra.Created.Time())
	a.Perms = map[antelope.Name]*exec.Permission{}
	for _, p := range ca.Permissions {
		a.Perms[p.PermName] = &exec.Permission{Name: p.PermName, Parent: p.Parent, Auth: p.RequiredAuth, LastUsed: forkTime}
	}
	link := func(perm antelope.Name, links []exec.LinkedAction) {
		for _, l := range links {
			if a.Links == nil {
				a.Links = map[exec.LinkKey]antelope.Name{}
			}
			k := exec.LinkKey{Code: l.Account}
			if l.Action != nil {
				k.Action = *l.Action
			}
			a.Links[k] = perm
		}
	}
	for _, p := range extra.Permissions {
		link(p.PermName, *p.LinkedActions)
	}
	link(exec.NameEosioAny, *extra.AnyLinkedActions)
	a.Privileged = ca.Privileged
	a.RAMQuota, a.RAMUsage = int64(ca.RAMQuota), int64(ca.RAMUsage)
	a.LastCodeUpdate = extra.LastCodeUpdate.Time()
	return a, nil
}

// LoadContract fetches account n's contract the first time it is looked
// up.
func (f *State) LoadContract(n antelope.Name) {
	e := f.chain.Engine()
	if err, asked := f.contracts[n]; asked {
		if err != nil {
			f.Fail(err)
		}
		return
	}
	if e.Account(n) == nil || !f.accounts[n] {
		if _, asked := f.accounts[n]; asked || e.Accounts[n] != nil {
			f.contracts[n] = nil // no account at the live chain (or one the fork made): no contract there
		}
		return
	}
	ctx, cancel := f.ctx()
	defer cancel()
	f.fetches++
	fc, err := f.src.Code(ctx, n)
	if err != nil {
		f.Fail(&exec.ForkError{Msg: "the contract of " + n.String() + ": " + err.Error()})
		return
	}
	// Code set after the fork block — or cleared (setcode with no code),
	// which leaves no wasm at the node although there was some at the
	// fork block — is not the fork block's.
	if fc.CodeUpdated.After(f.point.Time) {
		nc := NewerCode{Account: n, CodeUpdated: fc.CodeUpdated, ForkBlock: f.point.Block, ForkTime: f.point.Time}
		f.newer = append(f.newer, nc)
		err := &exec.ForkError{Msg: nc.String() + ": its code at the fork block is not available"}
		f.contracts[n] = err
		f.Fail(err)
		return
	}
	if len(fc.WASM) > 0 && len(fc.ABI) == 0 {
		f.noABI[n] = true
	}
	ct, err := forkedContract(e, fc)
	if err != nil {
		err := &exec.ForkError{Msg: "the contract of " + n.String() + ": " + err.Error()}
		f.contracts[n] = err
		f.Fail(err)
		return
	}
	f.contracts[n] = nil
	if ct == nil {
		return
	}
	e.Contracts[n] = ct
	v := exec.ABIVersion{Block: fc.ABIBlock, JSON: ct.ABI}
	if v.Block == 0 || v.Block > f.point.Block {
		v.Block = f.point.Block
	}
	if ct.ABI != nil {
		e.ABIs[n] = append([]exec.ABIVersion{v}, e.ABIs[n]...)
	}
	for _, s := range f.chain.SavedStates() {
		if s == nil || s.Contracts[n] != nil {
			continue
		}
		s.Contracts[n] = ct
		if ct.ABI != nil {
			s.ABIs[n] = append([]exec.ABIVersion{v}, s.ABIs[n]...)
		}
	}
}

// forkedContract is a contract as setcode and setabi would have made it;
// nil when there is neither code nor ABI.
func forkedContract(engine *exec.Engine, fc *Code) (*exec.Contract, error) {
	if len(fc.WASM) == 0 && len(fc.ABI) == 0 {
		return nil, nil
	}
	ct := &exec.Contract{Tables: map[antelope.Name]bool{}}
	if len(fc.WASM) > 0 {
		e, err := engine.WasmEngine()
		if err != nil {
			return nil, err
		}
		if ct.Module, err = e.Compile(fc.WASM); err != nil {
			return nil, err
		}
		ct.Code, ct.CodeHash = fc.WASM, sha256.Sum256(fc.WASM)
	}
	if len(fc.ABI) > 0 {
		src, err := model.Load(fc.ABI)
		if err != nil {
			return nil, fmt.Errorf("its ABI: %v", err)
		}
		if ct.PackedABI, err = src.ABI.Pack(); err != nil {
			return nil, fmt.Errorf("packing its ABI: %v", err)
		}
		ct.ABI = src.JSON
		if err := ct.ReadTables(src.JSON); err != nil {
			return nil, err
		}
	}
	return ct, nil
}

// unitOf is the primary table of a table id: CDT keeps secondary index
// positions in its low four bits.
func unitOf(id store.TableID) store.TableID {
	id.Table &^= 0xF
	return id
}

// fillTable fetches, on a fork, the table id belongs to the first time it
// is looked up.
func (f *State) fillTable(id store.TableID) *forkUnit {
	u := unitOf(id)
	if fu := f.units[u]; fu != nil {
		if fu.err != nil {
			f.Fail(fu.err)
		}
		return fu
	}
	fu := &forkUnit{bad: map[int]string{}}
	f.units[u] = fu // before fetching: the lookups below must not fetch it again
	if err := f.fetchUnit(u, fu); err != nil {
		fu.err = &exec.ForkError{Msg: fmt.Sprintf("table %s of %s in scope %s: %v", u.Table, u.Code, u.Scope, err)}
		f.Fail(fu.err)
		f.retry = append(f.retry, u)
	}
	return fu
}

// FillTable fetches the table id belongs to the first time it is looked
// up.
func (f *State) FillTable(id store.TableID) { f.fillTable(id) }

// FillIndex is FillTable for a secondary index of kind k: refused when
// the index cannot be learnt.
func (f *State) FillIndex(id store.TableID, k wasm.IndexKind) {
	fu := f.fillTable(id)
	if fu.err != nil {
		return
	}
	if fu.empty {
		return
	}
	pos := int(id.Table&0xF) + 2
	why, bad := fu.bad[pos]
	switch {
	case fu.undeclared:
		bad, why = true, "the ABI declares no key_types for it, so its secondary indexes are not known"
	case !bad && pos > fu.declared:
		// The contract has an index its ABI does not list: the ABI is not
		// the contract's word on its indexes, and the index is not empty
		// on the live chain because the ABI omits it.
		bad, why = true, fmt.Sprintf("its ABI lists %d secondary indexes (key_types), not this one", max(fu.declared-1, 0))
	}
	if want, rebuilt := fu.kinds[pos]; rebuilt && want != k {
		bad, why = true, "the ABI says its keys are "+kindNames[want]+" keys"
	}
	if bad {
		u := unitOf(id)
		f.Fail(&exec.ForkError{Msg: fmt.Sprintf("table %s of %s in scope %s: secondary index %d (position %d, %s) cannot be read on the fork: %s",
			u.Table, u.Code, u.Scope, pos-1, pos, kindNames[k], why)})
	}
}

// ListScopes refuses to list a contract's tables on a fork: it knows only
// those it fetched.
func (f *State) ListScopes(code antelope.Name) {
	f.Fail(&exec.ForkError{Msg: "the tables of " + code.String() + " cannot be listed on a fork (get_table_by_scope, table_scopes): it fetches a table when it is read, and knows no others"})
}

var kindNames = [store.NumKinds]string{wasm.Idx64: "idx64", wasm.Idx128: "idx128", wasm.Idx256: "idx256", wasm.IdxDouble: "idx_double", wasm.IdxLongDouble: "idx_long_double"}

// fetchUnit fetches a table in one scope and installs it with the
// secondary indexes its ABI lets the fork rebuild.
func (f *State) fetchUnit(u store.TableID, fu *forkUnit) error {
	ct := f.chain.Engine().Contract(u.Code)
	if f.noABI[u.Code] {
		// Its code writes rows all the same: they cannot be read (nodeos
		// serves no table without an ABI), and must not read as empty.
		return fmt.Errorf("the contract has no ABI at the fork block, so its tables cannot be read")
	}
	if ct == nil || ct.ABI == nil {
		fu.empty = true
		return nil // no contract at the fork block (or one the fork deployed): nodeos serves no table of it
	}
	keys, err := ReadTableKeys(ct.ABI, u.Table)
	if err != nil {
		return fmt.Errorf("its ABI: %v", err)
	}
	if !keys.InABI && f.src.Kind() == "nodeos" {
		return fmt.Errorf("the ABI at the fork block does not declare it, and a node serves no table its ABI does not")
	}
	fu.declared = keys.Declared
	fu.undeclared = keys.Declared == 0
	maps.Copy(fu.bad, keys.Bad)
	ctx, cancel := f.ctx()
	defer cancel()
	f.fetches++
	ft, err := f.src.Table(ctx, u.Code, u.Scope, u.Table, keys.Readers)
	if err != nil {
		return err
	}
	if len(ft.Rows) == 0 {
		// No such table at the fork block: it has no indexes to learn, and
		// whatever the fork writes in it is its own.
		fu.undeclared, fu.bad, fu.empty = false, map[int]string{}, true
		return nil
	}
	// The table's payer, when the node still lists the table; otherwise
	// (a state-service fork of a table removed since) unknown: its first
	// row's payer stands in, and removing the table is refused.
	payer, unknown := ft.Payer, ft.Payer == 0
	if unknown {
		payer = ft.Rows[0].Payer
	}
	built := map[store.TableID]*store.Table{}
	prim := &store.Table{Payer: payer, PayerUnknown: unknown, Rows: map[uint64]*store.Row{}}
	for _, r := range ft.Rows {
		prim.Rows[r.PK] = &store.Row{PK: r.PK, Data: r.Data, Payer: r.Payer}
	}
	built[u] = prim
	for pos, kr := range keys.Readers {
		objs := make([]*store.SecRow, 0, len(ft.Rows))
		for _, r := range ft.Rows {
			key, err := kr.Read(r.Data)
			if err != nil {
				return fmt.Errorf("secondary index position %d, row %d: %v", pos, r.PK, err)
			}
			objs = append(objs, &store.SecRow{PK: r.PK, Key: key, Payer: r.Payer})
		}
		slices.SortFunc(objs, store.CompareSec)
		if order, ok := ft.Order[pos]; ok && !sameOrder(objs, order) {
			fu.bad[pos] = "the keys read from its key_names field do not give the node's order by that index"
			continue
		}
		if why, ok := ft.Unlike[pos]; ok {
			fu.bad[pos] = why
			continue
		}
		id := store.IndexTable(u, pos)
		t := built[id]
		if t == nil {
			t = &store.Table{Payer: payer, PayerUnknown: unknown, Rows: map[uint64]*store.Row{}}
			built[id] = t
		}
		k := store.KindOf(kr.Type())
		if fu.kinds == nil {
			fu.kinds = map[int]wasm.IndexKind{}
		}
		fu.kinds[pos] = k
		t.Sec[k] = make(map[uint64]*store.SecRow, len(objs))
		for _, s := range objs {
			t.Sec[k][s.PK] = s
		}
	}
	f.installTables(built)
	return nil
}

// sameOrder reports whether objs are in the primary-key order the node
// gave.
func sameOrder(objs []*store.SecRow, order []uint64) bool {
	return slices.EqualFunc(objs, order, func(s *store.SecRow, pk uint64) bool { return s.PK == pk })
}

// installTables puts fetched tables in every state that lacks them: the
// current one, each block's, and the snapshot of the transaction under
// way.
func (f *State) installTables(built map[store.TableID]*store.Table) {
	e := f.chain.Engine()
	dbs := append([]*store.DB{e.DB}, f.chain.SavedTables()...)
	if e.TxSnap != nil {
		dbs = append(dbs, e.TxSnap)
	}
	ids := slices.SortedFunc(maps.Keys(built), func(a, b store.TableID) int { return cmp.Compare(a.Table, b.Table) })
	for _, id := range ids {
		t := built[id]
		t.Frozen = true
		for _, d := range dbs {
			if d.Tables[id] == nil {
				d.Tables[id] = t
			}
		}
	}
}
