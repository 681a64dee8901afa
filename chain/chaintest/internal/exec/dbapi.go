package exec

import (
	"sort"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// The table API of a contract (nodeos's db_*_i64 and db_idx*_* calls),
// with nodeos's iterators, access rules and RAM billing. Wasm contracts
// call it through the wasm.Database interface; Go handlers through
// Context.Get/Set/Delete, which use the same methods.

// nodeos's billable sizes (config::billable_size_v: each object's fixed
// size and index overhead, rounded up to 16 bytes).
const (
	billableTable = 112 // table_id_object
	billableRow   = 112 // key_value_object, plus the row's bytes
)

var billableSec = [store.NumKinds]int64{wasm.Idx64: 128, wasm.Idx128: 144, wasm.Idx256: 160, wasm.IdxDouble: 128, wasm.IdxLongDouble: 144}

func (a *applyContext) db() *db { return a.trx.c.DB }

// bill charges delta bytes of RAM to account for the current action.
func (a *applyContext) bill(account antelope.Name, delta int64) {
	a.trx.addRAM(a.trace(), account, delta)
}

// refundTable refunds a removed table to its payer. A forked table whose
// payer the live chain could not tell (payer 0) fails the transaction on
// the fork rather than refund a guessed account.
func (a *applyContext) refundTable(payer antelope.Name) {
	if payer == 0 && a.trx.c.Fork != nil {
		a.trx.c.Fork.Fail(&ForkError{"a table emptied by this transaction has a payer the live chain could not tell (get_table_by_scope no longer lists it), so its RAM refund is not known"})
		return
	}
	a.bill(payer, -billableTable)
}

// billChange bills a changed object as nodeos does: a new payer is charged
// the new size and the old one refunded the old size; the same payer is
// charged the difference.
func (a *applyContext) billChange(oldPayer, newPayer antelope.Name, oldSize, newSize int64) {
	if newPayer != oldPayer {
		a.bill(oldPayer, -oldSize)
		a.bill(newPayer, newSize)
		return
	}
	a.bill(newPayer, newSize-oldSize)
}

func (a *applyContext) writable() error {
	if a.trx.readOnly {
		return errReadOnly("cannot store a db record when executing a readonly transaction")
	}
	return nil
}

// ownRow is the row of a row iterator the receiver may change: nodeos's
// iterator errors, and "db access violation" for another contract's table.
func (a *applyContext) ownRow(cache *iterCache, it int32) (objRef, error) {
	if err := a.writable(); err != nil {
		return objRef{}, err
	}
	ref, err := cache.get(it)
	if err != nil {
		return objRef{}, err
	}
	if ref.table.Code != a.receiver {
		return objRef{}, errTableAccess()
	}
	return ref, nil
}

// StoreI64 is db_store_i64: a new row of the receiver's table.
func (a *applyContext) StoreI64(scope, table, payer, id uint64, data []byte) (int32, error) {
	if err := a.writable(); err != nil {
		return 0, err
	}
	if payer == 0 {
		return 0, errInvalidPayer()
	}
	tid := tableID{Code: a.receiver, Scope: antelope.Name(scope), Table: antelope.Name(table)}
	if a.db().Get(tid, id) != nil {
		return 0, errUniqueness()
	}
	p := antelope.Name(payer)
	if a.db().PutRow(tid, &row{PK: id, Data: data, Payer: p}) {
		a.bill(p, billableTable)
	}
	a.bill(p, int64(len(data))+billableRow)
	a.keyval.cacheTable(tid)
	return a.keyval.add(objRef{tid, id}), nil
}

// UpdateI64 is db_update_i64: a new value (and payer; 0 keeps it) for a
// row of the receiver's.
func (a *applyContext) UpdateI64(it int32, payer uint64, data []byte) error {
	ref, err := a.ownRow(&a.keyval, it)
	if err != nil {
		return err
	}
	old := a.db().Get(ref.table, ref.pk)
	p := antelope.Name(payer)
	if p == 0 {
		p = old.Payer
	}
	a.billChange(old.Payer, p, int64(len(old.Data))+billableRow, int64(len(data))+billableRow)
	a.db().PutRow(ref.table, &row{PK: ref.pk, Data: data, Payer: p})
	return nil
}

// RemoveI64 is db_remove_i64.
func (a *applyContext) RemoveI64(it int32) error {
	ref, err := a.ownRow(&a.keyval, it)
	if err != nil {
		return err
	}
	old := a.db().Get(ref.table, ref.pk)
	a.bill(old.Payer, -(int64(len(old.Data)) + billableRow))
	if removed, payer := a.db().RemoveRow(ref.table, ref.pk); removed {
		a.refundTable(payer)
	}
	return a.keyval.remove(it)
}

// GetI64 is db_get_i64: the row's bytes.
func (a *applyContext) GetI64(it int32) ([]byte, error) {
	ref, err := a.keyval.get(it)
	if err != nil {
		return nil, err
	}
	return a.db().Get(ref.table, ref.pk).Data, nil
}

// rowIndex is where pk is (or would go) in the table's primary order.
func rowIndex(rows []*row, pk uint64) int {
	return sort.Search(len(rows), func(i int) bool { return rows[i].PK >= pk })
}

// NextI64 is db_next_i64.
func (a *applyContext) NextI64(it int32) (int32, uint64, error) {
	if it < -1 {
		return -1, 0, nil // past the end iterator
	}
	ref, err := a.keyval.get(it)
	if err != nil {
		return 0, 0, err
	}
	rows := a.db().Primary(ref.table)
	i := rowIndex(rows, ref.pk) + 1
	if i >= len(rows) {
		return a.keyval.cacheTable(ref.table), 0, nil
	}
	return a.keyval.add(objRef{ref.table, rows[i].PK}), rows[i].PK, nil
}

// PreviousI64 is db_previous_i64 (from the end iterator: the last row).
func (a *applyContext) PreviousI64(it int32) (int32, uint64, error) {
	var tid tableID
	i := 0
	if it < -1 {
		t, ok := a.keyval.tableOfEnd(it)
		if !ok {
			return 0, 0, errInvalidIterator("not a valid end iterator")
		}
		tid, i = t, len(a.db().Primary(t))
	} else {
		ref, err := a.keyval.get(it)
		if err != nil {
			return 0, 0, err
		}
		tid, i = ref.table, rowIndex(a.db().Primary(ref.table), ref.pk)
	}
	if i == 0 {
		return -1, 0, nil
	}
	r := a.db().Primary(tid)[i-1]
	return a.keyval.add(objRef{tid, r.PK}), r.PK, nil
}

// FindI64 is db_find_i64.
func (a *applyContext) FindI64(code, scope, table, id uint64) int32 {
	tid := tableID{Code: antelope.Name(code), Scope: antelope.Name(scope), Table: antelope.Name(table)}
	if a.db().Table(tid) == nil {
		return -1
	}
	end := a.keyval.cacheTable(tid)
	if a.db().Get(tid, id) == nil {
		return end
	}
	return a.keyval.add(objRef{tid, id})
}

func (a *applyContext) boundI64(code, scope, table, id uint64, upper bool) int32 {
	tid := tableID{Code: antelope.Name(code), Scope: antelope.Name(scope), Table: antelope.Name(table)}
	if a.db().Table(tid) == nil {
		return -1
	}
	end := a.keyval.cacheTable(tid)
	rows := a.db().Primary(tid)
	i := rowIndex(rows, id)
	if upper && i < len(rows) && rows[i].PK == id {
		i++
	}
	if i >= len(rows) {
		return end
	}
	return a.keyval.add(objRef{tid, rows[i].PK})
}

// LowerboundI64 is db_lowerbound_i64: the first row with a key ≥ id.
func (a *applyContext) LowerboundI64(code, scope, table, id uint64) int32 {
	return a.boundI64(code, scope, table, id, false)
}

// UpperboundI64 is db_upperbound_i64: the first row with a key > id.
func (a *applyContext) UpperboundI64(code, scope, table, id uint64) int32 {
	return a.boundI64(code, scope, table, id, true)
}

// EndI64 is db_end_i64.
func (a *applyContext) EndI64(code, scope, table uint64) int32 {
	tid := tableID{Code: antelope.Name(code), Scope: antelope.Name(scope), Table: antelope.Name(table)}
	if a.db().Table(tid) == nil {
		return -1
	}
	return a.keyval.cacheTable(tid)
}

// IdxStore is db_idx*_store.
func (a *applyContext) IdxStore(k wasm.IndexKind, scope, table, payer, id uint64, key antelope.TableKey) (int32, error) {
	if err := a.writable(); err != nil {
		return 0, err
	}
	if payer == 0 {
		return 0, errInvalidPayer()
	}
	tid := tableID{Code: a.receiver, Scope: antelope.Name(scope), Table: antelope.Name(table)}
	if a.db().GetSec(tid, k, id) != nil {
		return 0, errUniqueness()
	}
	p := antelope.Name(payer)
	if a.db().PutSec(tid, k, &secRow{PK: id, Key: key, Payer: p}) {
		a.bill(p, billableTable)
	}
	a.bill(p, billableSec[k])
	a.idx[k].cacheTable(tid)
	return a.idx[k].add(objRef{tid, id}), nil
}

// IdxUpdate is db_idx*_update: a new key (and payer; 0 keeps it).
func (a *applyContext) IdxUpdate(k wasm.IndexKind, it int32, payer uint64, key antelope.TableKey) error {
	ref, err := a.ownRow(&a.idx[k], it)
	if err != nil {
		return err
	}
	old := a.db().GetSec(ref.table, k, ref.pk)
	p := antelope.Name(payer)
	if p == 0 {
		p = old.Payer
	}
	a.billChange(old.Payer, p, billableSec[k], billableSec[k])
	a.db().PutSec(ref.table, k, &secRow{PK: ref.pk, Key: key, Payer: p})
	return nil
}

// IdxRemove is db_idx*_remove.
func (a *applyContext) IdxRemove(k wasm.IndexKind, it int32) error {
	ref, err := a.ownRow(&a.idx[k], it)
	if err != nil {
		return err
	}
	old := a.db().GetSec(ref.table, k, ref.pk)
	a.bill(old.Payer, -billableSec[k])
	if removed, payer := a.db().RemoveSec(ref.table, k, ref.pk); removed {
		a.refundTable(payer)
	}
	return a.idx[k].remove(it)
}

// secIndex is where (key, pk) is (or would go) in the index order.
func secIndex(objs []*secRow, key antelope.TableKey, pk uint64) int {
	probe := &secRow{Key: key, PK: pk}
	return sort.Search(len(objs), func(i int) bool { return store.CompareSec(objs[i], probe) >= 0 })
}

// IdxNext is db_idx*_next.
func (a *applyContext) IdxNext(k wasm.IndexKind, it int32) (int32, uint64, error) {
	if it < -1 {
		return -1, 0, nil
	}
	ref, err := a.idx[k].get(it)
	if err != nil {
		return 0, 0, err
	}
	objs := a.db().Secondary(ref.table, k)
	cur := a.db().GetSec(ref.table, k, ref.pk)
	i := secIndex(objs, cur.Key, cur.PK) + 1
	if i >= len(objs) {
		return a.idx[k].cacheTable(ref.table), 0, nil
	}
	return a.idx[k].add(objRef{ref.table, objs[i].PK}), objs[i].PK, nil
}

// IdxPrevious is db_idx*_previous.
func (a *applyContext) IdxPrevious(k wasm.IndexKind, it int32) (int32, uint64, error) {
	var tid tableID
	i := 0
	if it < -1 {
		t, ok := a.idx[k].tableOfEnd(it)
		if !ok {
			return 0, 0, errInvalidIterator("not a valid end iterator")
		}
		tid, i = t, len(a.db().Secondary(t, k))
	} else {
		ref, err := a.idx[k].get(it)
		if err != nil {
			return 0, 0, err
		}
		cur := a.db().GetSec(ref.table, k, ref.pk)
		tid, i = ref.table, secIndex(a.db().Secondary(ref.table, k), cur.Key, cur.PK)
	}
	if i == 0 {
		return -1, 0, nil
	}
	s := a.db().Secondary(tid, k)[i-1]
	return a.idx[k].add(objRef{tid, s.PK}), s.PK, nil
}

func (a *applyContext) idxTable(k wasm.IndexKind, code, scope, table uint64) (tableID, int32, bool) {
	tid := tableID{Code: antelope.Name(code), Scope: antelope.Name(scope), Table: antelope.Name(table)}
	if a.db().Index(tid, k) == nil {
		return tid, -1, false
	}
	return tid, a.idx[k].cacheTable(tid), true
}

// IdxFindSecondary is db_idx*_find_secondary: the first object with key.
func (a *applyContext) IdxFindSecondary(k wasm.IndexKind, code, scope, table uint64, key antelope.TableKey) (int32, uint64) {
	tid, end, ok := a.idxTable(k, code, scope, table)
	if !ok {
		return -1, 0
	}
	objs := a.db().Secondary(tid, k)
	i := secIndex(objs, key, 0)
	if i >= len(objs) || objs[i].Key.Compare(key) != 0 {
		return end, 0
	}
	return a.idx[k].add(objRef{tid, objs[i].PK}), objs[i].PK
}

// IdxFindPrimary is db_idx*_find_primary: the object of a primary key.
func (a *applyContext) IdxFindPrimary(k wasm.IndexKind, code, scope, table, pk uint64) (int32, antelope.TableKey) {
	tid, end, ok := a.idxTable(k, code, scope, table)
	if !ok {
		return -1, antelope.TableKey{}
	}
	s := a.db().GetSec(tid, k, pk)
	if s == nil {
		return end, antelope.TableKey{}
	}
	return a.idx[k].add(objRef{tid, pk}), s.Key
}

func (a *applyContext) idxBound(k wasm.IndexKind, code, scope, table uint64, key antelope.TableKey, upper bool) (int32, antelope.TableKey, uint64) {
	tid, end, ok := a.idxTable(k, code, scope, table)
	if !ok {
		return -1, antelope.TableKey{}, 0
	}
	objs := a.db().Secondary(tid, k)
	i := secIndex(objs, key, 0)
	if upper {
		for i < len(objs) && objs[i].Key.Compare(key) == 0 {
			i++
		}
	}
	if i >= len(objs) {
		return end, antelope.TableKey{}, 0
	}
	return a.idx[k].add(objRef{tid, objs[i].PK}), objs[i].Key, objs[i].PK
}

// IdxLowerbound is db_idx*_lowerbound: the first object with a key ≥ key.
func (a *applyContext) IdxLowerbound(k wasm.IndexKind, code, scope, table uint64, key antelope.TableKey) (int32, antelope.TableKey, uint64) {
	return a.idxBound(k, code, scope, table, key, false)
}

// IdxUpperbound is db_idx*_upperbound: the first object with a key > key.
func (a *applyContext) IdxUpperbound(k wasm.IndexKind, code, scope, table uint64, key antelope.TableKey) (int32, antelope.TableKey, uint64) {
	return a.idxBound(k, code, scope, table, key, true)
}

// IdxEnd is db_idx*_end.
func (a *applyContext) IdxEnd(k wasm.IndexKind, code, scope, table uint64) int32 {
	_, end, _ := a.idxTable(k, code, scope, table)
	return end
}

// setRow is a Go handler's Set: store (or modify) a row and its secondary
// index entries, billed as the wasm calls bill them.
func (a *applyContext) setRow(scope, table antelope.Name, pk uint64, data []byte, payer antelope.Name, secondary []antelope.TableKey) error {
	if err := a.writable(); err != nil {
		return err
	}
	tid := tableID{Code: a.receiver, Scope: scope, Table: table}
	old := a.db().Get(tid, pk)
	if payer == 0 {
		payer = a.receiver
		if old != nil {
			payer = old.Payer
		}
	}
	newSize := int64(len(data)) + billableRow
	switch {
	case old == nil:
		if a.db().PutRow(tid, &row{PK: pk, Data: data, Payer: payer}) {
			a.bill(payer, billableTable)
		}
		a.bill(payer, newSize)
	default:
		a.billChange(old.Payer, payer, int64(len(old.Data))+billableRow, newSize)
		a.db().PutRow(tid, &row{PK: pk, Data: data, Payer: payer})
	}
	for i, key := range secondary {
		sid, k := store.IndexTable(tid, i+2), store.KindOf(key.Type())
		oldSec := a.db().GetSec(sid, k, pk)
		switch {
		case oldSec == nil:
			if a.db().PutSec(sid, k, &secRow{PK: pk, Key: key, Payer: payer}) {
				a.bill(payer, billableTable)
			}
			a.bill(payer, billableSec[k])
		case oldSec.Payer != payer || oldSec.Key.Compare(key) != 0:
			a.billChange(oldSec.Payer, payer, billableSec[k], billableSec[k])
			a.db().PutSec(sid, k, &secRow{PK: pk, Key: key, Payer: payer})
		}
	}
	return nil
}

// deleteRow is a Go handler's Delete: the row and its entries in every
// secondary index table of the primary table (CDT's index tables: the
// primary table's name with the index number in the low four bits, the
// first being the primary table itself).
func (a *applyContext) deleteRow(scope, table antelope.Name, pk uint64) error {
	if err := a.writable(); err != nil {
		return err
	}
	tid := tableID{Code: a.receiver, Scope: scope, Table: table}
	old := a.db().Get(tid, pk)
	if old == nil {
		return nil
	}
	a.bill(old.Payer, -(int64(len(old.Data)) + billableRow))
	if removed, payer := a.db().RemoveRow(tid, pk); removed {
		a.refundTable(payer)
	}
	for i := 2; i < 2+16; i++ {
		sid := store.IndexTable(tid, i) // the first is the primary table itself
		for k := range wasm.IndexKind(store.NumKinds) {
			if s := a.db().GetSec(sid, k, pk); s != nil {
				a.bill(s.Payer, -billableSec[k])
				if removed, payer := a.db().RemoveSec(sid, k, pk); removed {
					a.refundTable(payer)
				}
			}
		}
	}
	return nil
}
