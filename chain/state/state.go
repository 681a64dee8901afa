package state

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// Client is a client of the state service (/v0/state/*): contract tables
// and ABIs as they were at any block, which no nodeos can give. Requests
// carry a token from the token service (see Auth). At(block) reads at a
// past block; the zero block is the head. Client implements
// antelope.TableReader, so one call site reads from it or from a nodeos
// chain.Client.
type Client struct {
	baseURL string
	auth    *Auth
	block   uint32
}

var _ antelope.TableReader = (*Client)(nil)

// New returns a client of the state service at baseURL, authenticated by
// auth (whose Transport is the HTTP core; nil gets a default one). A nil
// auth is an Auth without an API key: every read is then an error
// matching ErrNoAPIKey, never a panic.
func New(baseURL string, auth *Auth) *Client {
	if auth == nil {
		auth = &Auth{}
	}
	if auth.Transport == nil {
		auth.Transport = &httpcore.Transport{}
	}
	httpcore.AddURLSecrets(baseURL)
	return &Client{baseURL: strings.TrimRight(baseURL, "/"), auth: auth}
}

// At returns a view of the state service at block num (0: the head
// block). Block numbers are uint32 throughout, as nodeos's block_num.
func (s *Client) At(num uint32) *Client {
	c := *s
	c.block = num
	return &c
}

// Block is the block this view reads at; 0 is the head.
func (s *Client) Block() uint32 { return s.block }

func (s *Client) get(ctx context.Context, path string, q url.Values) ([]byte, error) {
	u, err := httpcore.JoinURL(s.baseURL, path)
	if err != nil {
		return nil, fmt.Errorf("state service: %w", err)
	}
	if s.block > 0 {
		q.Set("block_num", strconv.FormatUint(uint64(s.block), 10))
	}
	body, err := s.auth.Get(ctx, httpcore.WithQuery(u, q))
	if err != nil {
		return nil, err
	}
	if err := s.checkBlock(path, body); err != nil {
		return nil, err
	}
	return body, nil
}

// checkBlock checks that an answer of a view At a block is as of that
// block: its up_to_block_num (block_num for table_scopes; /v0/state/abi's
// block_num is the block that set the ABI, which abi checks is not after
// the view's block). A service that
// answers with another block's state (its head, a cache's) would
// otherwise pass it off as the block's. A head view (block 0) takes the
// block the service answers as of.
func (s *Client) checkBlock(path string, body []byte) error {
	switch {
	case s.block == 0:
		return nil
	case path == "/v0/state/abi":
		return nil // its block_num is the block that set the ABI
	}
	var as struct {
		UpTo  *uint64 `json:"up_to_block_num"`
		Block *uint64 `json:"block_num"`
	}
	if err := json.Unmarshal(body, &as); err != nil {
		return httpcore.AnswerErrorf("state service %s: unexpected answer: %v", path, err)
	}
	got := as.UpTo
	if got == nil {
		got = as.Block
	}
	switch {
	case got == nil:
		return fmt.Errorf("state service %s: asked as of block %d, the answer names no block", path, s.block)
	case *got != uint64(s.block):
		return fmt.Errorf("state service %s: asked as of block %d, the answer is as of block %d", path, s.block, *got)
	}
	return nil
}

// decodeStateAnswer reads a state service answer into out; an answer
// without the field named want is an error, not an empty result.
func decodeStateAnswer(path string, body []byte, want string, out any) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return httpcore.AnswerErrorf("state service %s: unexpected answer: %v", path, err)
	}
	if _, ok := fields[want]; !ok {
		return fmt.Errorf("state service %s: an answer without %s", path, want)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return httpcore.AnswerErrorf("state service %s: unexpected answer: %v", path, err)
	}
	return nil
}

// Table is a table as the state service returned it at a block.
type Table struct {
	UpToBlockNum             uint32 // the block the rows are as of
	LastIrreversibleBlockNum uint32 // the chain's LIB when it answered
	Rows                     []Row  // in primary key order
}

// Row is one row with its primary key.
type Row struct {
	Key uint64 // the primary key
	antelope.TableRow
}

type stateRowJSON struct {
	Key   string          `json:"key"`
	Payer antelope.Name   `json:"payer"`
	Hex   string          `json:"hex"`
	JSON  json.RawMessage `json:"json"`
	Error string          `json:"error"`
}

type stateTableJSON struct {
	UpToBlockNum             uint32         `json:"up_to_block_num"`
	LastIrreversibleBlockNum uint32         `json:"last_irreversible_block_num"`
	Rows                     []stateRowJSON `json:"rows"`
	Row                      *stateRowJSON  `json:"row"`
}

func (r stateRowJSON) decode() (Row, error) {
	if r.Error != "" {
		return Row{}, httpcore.AnswerErrorf("state service: row %s: %s", r.Key, r.Error)
	}
	k, err := strconv.ParseUint(r.Key, 10, 64)
	if err != nil {
		return Row{}, httpcore.AnswerErrorf("state service: row key %q is not a uint64 (asked with key_type=uint64)", r.Key)
	}
	data, err := hex.DecodeString(r.Hex)
	if err != nil {
		return Row{}, httpcore.AnswerErrorf("state service: row %s: not hex: %v", r.Key, err)
	}
	return Row{Key: k, TableRow: antelope.TableRow{Data: data, Payer: r.Payer}}, nil
}

func tableParams(code, scope, table antelope.Name) url.Values {
	return url.Values{"account": {code.String()}, "scope": {scope.String()}, "table": {table.String()},
		"json": {"false"}, "key_type": {"uint64"}}
}

// Table returns a whole table (GET /v0/state/table, json=false).
func (s *Client) Table(ctx context.Context, code, scope, table antelope.Name) (*Table, error) {
	body, err := s.get(ctx, "/v0/state/table", tableParams(code, scope, table))
	if err != nil {
		return nil, err
	}
	return decodeStateTable(body)
}

// decodeStateTable reads /v0/state/table's answer: its rows, each with a
// uint64 key and hex data, sorted by key.
func decodeStateTable(body []byte) (*Table, error) {
	var out stateTableJSON
	if err := decodeStateAnswer("/v0/state/table", body, "rows", &out); err != nil {
		return nil, err
	}
	t := &Table{UpToBlockNum: out.UpToBlockNum, LastIrreversibleBlockNum: out.LastIrreversibleBlockNum}
	for _, r := range out.Rows {
		row, err := r.decode()
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, row)
	}
	if err := sortRows("/v0/state/table", t.Rows); err != nil {
		return nil, err
	}
	return t, nil
}

// sortRows sorts rows by primary key; a key twice (a service sending a row
// twice) is an error, not a row read twice.
func sortRows(path string, rows []Row) error {
	slices.SortFunc(rows, func(a, b Row) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	for i := 1; i < len(rows); i++ {
		if rows[i].Key == rows[i-1].Key {
			return fmt.Errorf("state service %s: the row with primary key %d twice", path, rows[i].Key)
		}
	}
	return nil
}

// Row returns one row by primary key (GET /v0/state/table/row); found is
// false when there is none.
func (s *Client) Row(ctx context.Context, code, scope, table antelope.Name, primaryKey uint64) (row Row, found bool, err error) {
	q := tableParams(code, scope, table)
	q.Set("primary_key", strconv.FormatUint(primaryKey, 10))
	body, err := s.get(ctx, "/v0/state/table/row", q)
	if err != nil {
		return Row{}, false, err
	}
	row, found, err = decodeStateRow(body)
	if found && row.Key != primaryKey {
		return Row{}, false, fmt.Errorf("state service: asked for the row with primary key %d, got %d", primaryKey, row.Key)
	}
	return row, found, err
}

// decodeStateRow reads /v0/state/table/row's answer: "row" is the row, or
// null when there is none.
func decodeStateRow(body []byte) (row Row, found bool, err error) {
	var out stateTableJSON
	if err := decodeStateAnswer("/v0/state/table/row", body, "row", &out); err != nil {
		return Row{}, false, err
	}
	if out.Row == nil || (out.Row.Hex == "" && out.Row.Key == "") {
		return Row{}, false, nil // null, or an empty row: none
	}
	row, err = out.Row.decode()
	return row, err == nil, err
}

// ScopeList lists the scopes of a table at the view's block (GET
// /v0/state/table_scopes).
func (s *Client) ScopeList(ctx context.Context, code, table antelope.Name) ([]antelope.Name, error) {
	body, err := s.get(ctx, "/v0/state/table_scopes", url.Values{"account": {code.String()}, "table": {table.String()}})
	if err != nil {
		return nil, err
	}
	return decodeScopeList(body)
}

// decodeScopeList reads /v0/state/table_scopes's answer.
func decodeScopeList(body []byte) ([]antelope.Name, error) {
	var out struct {
		Scopes []antelope.Name `json:"scopes"`
	}
	if err := decodeStateAnswer("/v0/state/table_scopes", body, "scopes", &out); err != nil {
		return nil, err
	}
	if out.Scopes == nil {
		out.Scopes = []antelope.Name{}
	}
	return out.Scopes, nil
}

// TableScopes is ScopeList as a sequence: Client is an
// antelope.ScopeReader.
func (s *Client) TableScopes(ctx context.Context, code, table antelope.Name) iter.Seq2[antelope.Name, error] {
	return func(yield func(antelope.Name, error) bool) {
		scopes, err := s.ScopeList(ctx, code, table)
		if err != nil {
			yield(0, err)
			return
		}
		for _, sc := range scopes {
			if !yield(sc, nil) {
				return
			}
		}
	}
}

var _ antelope.ScopeReader = (*Client)(nil)

// TablesByScopes returns one table in many scopes at once (GET
// /v0/state/tables/scopes; at most 1,500 scopes a request): each scope the
// service answered, with its rows in primary key order (none: an empty
// list). A scope or a row answered twice is an error.
func (s *Client) TablesByScopes(ctx context.Context, code, table antelope.Name, scopes []antelope.Name) (map[antelope.Name][]Row, error) {
	out := map[antelope.Name][]Row{}
	// Each scope asked once: the service answers a scope asked twice twice.
	scopes = slices.Clone(scopes)
	slices.Sort(scopes)
	scopes = slices.Compact(scopes)
	for len(scopes) > 0 {
		n := min(len(scopes), 1500)
		names := make([]string, n)
		for i, sc := range scopes[:n] {
			names[i] = sc.String()
		}
		q := url.Values{"account": {code.String()}, "table": {table.String()}, "scopes": {strings.Join(names, "|")},
			"json": {"false"}, "key_type": {"uint64"}}
		body, err := s.get(ctx, "/v0/state/tables/scopes", q)
		if err != nil {
			return nil, err
		}
		if err := decodeTablesByScopes(body, out); err != nil {
			return nil, err
		}
		scopes = scopes[n:]
	}
	return out, nil
}

// decodeTablesByScopes reads /v0/state/tables/scopes's answer into out.
func decodeTablesByScopes(body []byte, out map[antelope.Name][]Row) error {
	var resp struct {
		Tables []struct {
			Scope antelope.Name  `json:"scope"`
			Rows  []stateRowJSON `json:"rows"`
		} `json:"tables"`
	}
	if err := decodeStateAnswer("/v0/state/tables/scopes", body, "tables", &resp); err != nil {
		return err
	}
	for _, t := range resp.Tables {
		if _, twice := out[t.Scope]; twice {
			return fmt.Errorf("state service /v0/state/tables/scopes: scope %s twice", t.Scope)
		}
		rows := []Row{}
		for _, r := range t.Rows {
			row, err := r.decode()
			if err != nil {
				return err
			}
			rows = append(rows, row)
		}
		if err := sortRows("/v0/state/tables/scopes", rows); err != nil {
			return err
		}
		out[t.Scope] = rows
	}
	return nil
}

// TableRows returns q's rows as they were at the view's block. The state
// service reads a table by primary key only: a secondary index is an
// error. Bounds, Reverse and Limit are applied to the whole table, which
// one request returns.
func (s *Client) TableRows(ctx context.Context, q antelope.TableQuery) iter.Seq2[antelope.TableRow, error] {
	return func(yield func(antelope.TableRow, error) bool) {
		if q.Index > 1 {
			yield(antelope.TableRow{}, errors.New("state service: tables are read by primary key only; use a nodeos Client for a secondary index"))
			return
		}
		if err := primaryKeyQuery(q); err != nil {
			yield(antelope.TableRow{}, err)
			return
		}
		t, err := s.Table(ctx, q.Code, q.Scope, q.Table)
		if err != nil {
			yield(antelope.TableRow{}, err)
			return
		}
		rows := t.Rows
		if q.Reverse {
			rows = slices.Clone(rows)
			slices.Reverse(rows)
		}
		n := 0
		for _, r := range rows {
			if !q.Lower.IsZero() && r.Key < q.Lower.Uint64() || !q.Upper.IsZero() && r.Key > q.Upper.Uint64() {
				continue
			}
			if !yield(r.TableRow, nil) {
				return
			}
			if n++; q.Limit > 0 && n >= q.Limit {
				return
			}
		}
	}
}

// primaryKeyQuery checks that q's key type and bounds are the primary key's
// (64-bit), the only index the state service reads.
func primaryKeyQuery(q antelope.TableQuery) error {
	for _, t := range []antelope.IndexKeyType{q.KeyType, q.Lower.Type(), q.Upper.Type()} {
		if t != "" && t != antelope.IndexI64 {
			return fmt.Errorf("table query: the primary key is a 64-bit key, not %s", t)
		}
	}
	return nil
}
