package nodeosapi

import (
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/faults"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// get_table_rows and get_table_by_scope, as spring's chain_plugin answers
// them (read_only::get_table_rows_ex, get_table_rows_by_seckey,
// get_table_by_scope).

// Tables is what get_table_rows and get_table_by_scope read of the chain.
type Tables interface {
	// Lock and Unlock are the chain's lock, held while the tables are
	// read.
	sync.Locker
	// State is the chain's tables now; the lock is held.
	State() *store.DB
	// CheckTable answers as nodeos does for an account with no contract,
	// or a table its ABI does not declare; 0 when the table may be read.
	// The lock is held.
	CheckTable(code, table antelope.Name) (int, any)
	// PageSize is where nodeos's time limit cuts a page short (0: never).
	PageSize() int
	// Faults bends the pages as a hostile node does.
	Faults() *faults.Injector
}

type tableRowsParams struct {
	JSON          bool            `json:"json"`
	Code          string          `json:"code"`
	Scope         string          `json:"scope"`
	Table         string          `json:"table"`
	LowerBound    string          `json:"lower_bound"`
	UpperBound    string          `json:"upper_bound"`
	Limit         *uint32         `json:"limit"`
	KeyType       string          `json:"key_type"`
	IndexPosition json.RawMessage `json:"index_position"`
	EncodeType    string          `json:"encode_type"`
	Reverse       bool            `json:"reverse"`
	ShowPayer     bool            `json:"show_payer"`
}

// maxReturnItems is nodeos's cap on one page.
const maxReturnItems = 1000

// indexPosition reads index_position as nodeos does: "primary", "secondary",
// "third"…, or a number (1 is the primary index).
func indexPosition(raw json.RawMessage) (int, bool) {
	var s string
	if len(raw) == 0 {
		return 1, true
	}
	if json.Unmarshal(raw, &s) != nil {
		return 0, false
	}
	words := []string{"", "primary|first|one", "sec|two", "ter|th", "fou", "fi", "six", "sev", "eig", "nin", "ten"}
	if s == "" {
		return 1, true
	}
	for pos := 1; pos < len(words); pos++ {
		for _, w := range strings.Split(words[pos], "|") {
			if pos == 1 && s == w || pos > 1 && strings.HasPrefix(s, w) {
				return pos, true
			}
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, false
	}
	if n < 2 {
		return 1, true
	}
	return int(n), true
}

// GetTableRows answers get_table_rows over c.
func GetTableRows(c Tables, body []byte) (int, any) {
	var p tableRowsParams
	if err := json.Unmarshal(body, &p); err != nil {
		return BadRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	if p.JSON {
		return TableQueryError("chaintest returns binary rows only: ask with json=false and decode them with the generated row type")
	}
	code, err := antelope.ParseName(p.Code)
	if err != nil {
		return Error(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", err.Error())
	}
	table, err := antelope.ParseName(p.Table)
	if err != nil {
		return Error(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", err.Error())
	}
	pos, ok := indexPosition(p.IndexPosition)
	if !ok {
		return TableQueryError("Invalid index_position: " + string(p.IndexPosition))
	}
	c.Lock()
	defer c.Unlock()
	if status, out := c.CheckTable(code, table); status != 0 {
		return status, out
	}
	scope, err := convertToUint64(p.Scope)
	if err != nil {
		return Error(500, "Internal Service Error", 3010008, "chain_type_exception", "chain type exception", "Could not convert scope string '"+p.Scope+"': "+err.Error())
	}
	encode := p.EncodeType
	if encode == "" {
		encode = "dec"
	}
	primary := pos <= 1
	if !primary && p.KeyType == "" {
		return TableQueryError("key type required for non-primary index")
	}
	if primary && p.KeyType != "" && p.KeyType != "i64" && p.KeyType != "name" {
		return TableQueryError("Invalid table type " + p.KeyType)
	}
	keyType := p.KeyType
	if primary {
		keyType = "i64"
		if p.KeyType == "name" {
			keyType = "name"
		}
	}
	var lower, upper antelope.TableKey
	for _, b := range []struct {
		text string
		dst  *antelope.TableKey
	}{{p.LowerBound, &lower}, {p.UpperBound, &upper}} {
		if b.text == "" {
			continue
		}
		k, err := ParseBound(keyType, encode, b.text, primary)
		if err != nil {
			if keyType == "name" {
				return Error(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", err.Error())
			}
			return Error(500, "Internal Service Error", 3010008, "chain_type_exception", "chain type exception", err.Error())
		}
		*b.dst = k
	}
	limit := uint32(10)
	if p.Limit != nil {
		limit = *p.Limit
	}
	id := store.TableID{Code: code, Scope: antelope.Name(scope), Table: table}
	rows := indexEntries(c.State(), id, pos, antelope.IndexKeyType(keyType))
	keyOf := func(e indexEntry) antelope.TableKey { return e.key }
	// The range [lower, upper] of the index, found by binary search.
	from := 0
	if !lower.IsZero() {
		from = sort.Search(len(rows), func(i int) bool { return keyOf(rows[i]).Compare(lower) >= 0 })
	}
	to := len(rows)
	if !upper.IsZero() {
		to = sort.Search(len(rows), func(i int) bool { return keyOf(rows[i]).Compare(upper) > 0 })
	}
	if to < from {
		to = from
	}
	nextKeyText := func(e indexEntry) string {
		if primary {
			return strconv.FormatUint(keyOf(e).Uint64(), 10)
		}
		return FormatNextKey(keyOf(e), encode)
	}
	before := "" // the row just before the range, in read order
	if !p.Reverse && from > 0 {
		before = nextKeyText(rows[from-1])
	} else if p.Reverse && to < len(rows) {
		before = nextKeyText(rows[to])
	}
	limit = min(limit, maxReturnItems)
	from, to, limit = c.Faults().TableRange(from, to, len(rows), limit)
	sel := rows[from:to]
	at := func(i int) indexEntry { return sel[i] }
	if p.Reverse {
		at = func(i int) indexEntry { return sel[len(sel)-1-i] }
	}
	out := struct {
		Rows    []any  `json:"rows"`
		More    bool   `json:"more"`
		NextKey string `json:"next_key"`
	}{Rows: []any{}}
	i := 0
	for ; i < len(sel) && uint32(i) < limit; i++ {
		r := at(i).row
		data := hex.EncodeToString(r.Data)
		if p.ShowPayer {
			out.Rows = append(out.Rows, map[string]string{"data": data, "payer": r.Payer.String()})
		} else {
			out.Rows = append(out.Rows, data)
		}
		if c.PageSize() > 0 && i+1 >= c.PageSize() && i+1 < len(sel) && uint32(i+1) < limit {
			break // the time limit: nodeos breaks before moving past this row, whose key is next_key
		}
	}
	if i < len(sel) {
		out.More = true
		out.NextKey = nextKeyText(at(i))
	}
	first := ""
	if len(sel) > 0 {
		first = nextKeyText(at(0))
	}
	c.Faults().TablePage(&out.Rows, &out.More, &out.NextKey, first, before)
	return 200, out
}

// indexEntry is a row as an index orders it: by the index's key.
type indexEntry struct {
	key antelope.TableKey
	row *store.Row
}

// indexEntries is a table's rows in the order of an index position: the
// primary key, or a secondary index read from its own table (CDT's name:
// the table's with position-2 in the low four bits) of the index type of
// keyType, each entry with its row (an entry with no row is left out, as
// nodeos leaves it).
func indexEntries(db *store.DB, id store.TableID, pos int, keyType antelope.IndexKeyType) []indexEntry {
	if pos <= 1 {
		rows := db.Primary(id)
		out := make([]indexEntry, len(rows))
		for i, r := range rows {
			out[i] = indexEntry{antelope.KeyUint64(r.PK), r}
		}
		return out
	}
	if keyType == "name" {
		keyType = antelope.IndexI64
	}
	var out []indexEntry
	for _, s := range db.Secondary(store.IndexTable(id, pos), store.KindOf(keyType)) {
		if r := db.Get(id, s.PK); r != nil {
			out = append(out, indexEntry{s.Key, r})
		}
	}
	return out
}

type tableByScopeParams struct {
	Code       string  `json:"code"`
	Table      string  `json:"table"`
	LowerBound string  `json:"lower_bound"`
	UpperBound string  `json:"upper_bound"`
	Limit      *uint32 `json:"limit"`
	Reverse    bool    `json:"reverse"`
}

// GetTableByScope answers get_table_by_scope over c.
func GetTableByScope(c Tables, body []byte) (int, any) {
	var p tableByScopeParams
	if err := json.Unmarshal(body, &p); err != nil {
		return BadRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	code, err := antelope.ParseName(p.Code)
	if err != nil {
		return Error(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", err.Error())
	}
	var table antelope.Name
	if p.Table != "" {
		if table, err = antelope.ParseName(p.Table); err != nil {
			return Error(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", err.Error())
		}
	}
	lower, upper := uint64(0), ^uint64(0)
	if p.LowerBound != "" {
		if lower, err = convertToUint64(p.LowerBound); err != nil {
			return Error(500, "Internal Service Error", 3010008, "chain_type_exception", "chain type exception", err.Error())
		}
	}
	if p.UpperBound != "" {
		if upper, err = convertToUint64(p.UpperBound); err != nil {
			return Error(500, "Internal Service Error", 3010008, "chain_type_exception", "chain type exception", err.Error())
		}
	}
	limit := uint32(10)
	if p.Limit != nil {
		limit = min(*p.Limit, maxReturnItems)
	}
	c.Lock()
	defer c.Unlock()
	var sel []store.TableID
	before := "" // the scope just before the range, in read order
	state := c.State()
	for _, id := range state.Scopes(code) {
		switch {
		case uint64(id.Scope) < lower:
			if !p.Reverse {
				before = id.Scope.String()
			}
			continue
		case uint64(id.Scope) > upper:
			if p.Reverse && before == "" {
				before = id.Scope.String()
			}
			continue
		}
		sel = append(sel, id)
	}
	if p.Reverse {
		for i, j := 0, len(sel)-1; i < j; i, j = i+1, j-1 {
			sel[i], sel[j] = sel[j], sel[i]
		}
	}
	type scopeRow struct {
		Code  string `json:"code"`
		Scope string `json:"scope"`
		Table string `json:"table"`
		Payer string `json:"payer"`
		Count uint32 `json:"count"`
	}
	out := struct {
		Rows []scopeRow `json:"rows"`
		More string     `json:"more"`
	}{Rows: []scopeRow{}}
	// As nodeos walks: count every entry of the range against the limit,
	// report only those of the table asked for.
	i := 0
	returned := 0
	for ; i < len(sel) && uint32(i) < limit; i++ {
		id := sel[i]
		if table != 0 && id.Table != table {
			continue
		}
		t := state.Tables[id]
		payer := code
		for _, r := range t.Rows {
			payer = r.Payer
			break
		}
		out.Rows = append(out.Rows, scopeRow{id.Code.String(), id.Scope.String(), id.Table.String(), payer.String(), uint32(len(t.Rows))})
		returned++
		if c.PageSize() > 0 && returned >= c.PageSize() && i+1 < len(sel) && uint32(i+1) < limit {
			break // the time limit: more is this row's scope
		}
	}
	if i < len(sel) {
		out.More = c.Faults().ScopeMore(sel[i].Scope.String(), before)
	}
	return 200, out
}
