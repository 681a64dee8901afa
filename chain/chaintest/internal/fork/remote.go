package fork

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/state"
)

// The remote side of a fork (WithFork): what a forked chain asks the live
// chain, through chain.Client (nodeos's chain API) and state.Client (the
// state service), in answers small enough to record in a fork cache
// (cache.go) and replay.

// Config is where the live chain is (chaintest.Remote's fields): its
// nodeos chain API, its state service (StateURL, AuthURL, APIKey as
// state.Auth takes them; empty: nodeos only), the fork block, the cache,
// and the HTTP client of both services (nil: http.DefaultClient).
type Config struct {
	NodeURL, StateURL, AuthURL, APIKey string
	// Block is the fork block; 0: the node's head when Point asks (with a
	// cache: the cache's block).
	Block uint32
	// Cache is a directory recording every answer; Offline forbids the
	// network (every answer must be in Cache).
	Cache   string
	Offline bool
	HTTP    *http.Client
}

// Point is the fork block: the chain, its number and time.
type Point struct {
	ChainID antelope.Checksum256 `json:"chain_id"`
	Block   uint32               `json:"block"`
	Time    time.Time            `json:"time"`
}

// Code is an account's contract: its code as the node has it now,
// when that code was set, and its ABI at the fork block.
type Code struct {
	WASM        []byte          `json:"wasm"`
	CodeUpdated time.Time       `json:"code_updated"`  // the account's last_code_update
	ABI         json.RawMessage `json:"abi,omitempty"` // ABI JSON at the fork block; nil: none
	ABIBlock    uint32          `json:"abi_block"`     // the block that ABI was set in (state service); 0 unknown
}

// Row is a primary row.
type Row struct {
	PK    uint64        `json:"pk"`
	Payer antelope.Name `json:"payer"`
	Data  []byte        `json:"data"`
}

// Table is a table in one scope: its rows, the table's payer, and for
// each secondary index asked for the primary keys in the node's order by
// it (nil when the source cannot tell it).
type Table struct {
	Payer antelope.Name    `json:"payer"`
	Rows  []Row            `json:"rows"`
	Order map[int][]uint64 `json:"order,omitempty"` // index position → primary keys in the node's order
	// Unlike says, by index position, why the node's keys are not those
	// read from the rows by key_names (checked when the node holds the
	// very rows).
	Unlike map[int]string `json:"unlike,omitempty"`
}

// Source answers a fork's questions; every answer is of the fork
// block (accounts and code: the node's state when asked).
type Source interface {
	// account is get_account's answer, nil when there is no such account.
	Account(ctx context.Context, n antelope.Name) (json.RawMessage, error)
	Code(ctx context.Context, n antelope.Name) (*Code, error)
	// table reads (code, scope, table) and the node's order by each of
	// the secondary index positions of readers (position → how the fork
	// reads that index's key from a row), checking the keys they read.
	Table(ctx context.Context, code, scope, table antelope.Name, readers map[int]KeyReader) (*Table, error)
	// kind names the source for a cache: "nodeos" or "state".
	Kind() string
}

// countingTransport counts requests and answer bytes of the live chain.
type countingTransport struct {
	base            http.RoundTripper
	requests, bytes atomic.Int64
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.requests.Add(1)
	resp, err := t.base.RoundTrip(r)
	if err == nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &t.bytes}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// Live reads a live chain through chain.Client and, when it has one,
// state.Client at the fork block.
type Live struct {
	node  *chain.Client
	state *state.Client // nil: nodeos only
	block uint32        // the fork block once known
	count *countingTransport
}

// NewLive reads the live chain of f, counting what it asks.
func NewLive(f Config) *Live {
	base := http.DefaultClient
	if f.HTTP != nil {
		base = f.HTTP
	}
	rt := base.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	counted := &countingTransport{base: rt}
	hc := &http.Client{Transport: counted, Timeout: base.Timeout, Jar: base.Jar}
	tr := &httpcore.Transport{HTTP: hc}
	s := &Live{node: chain.New(f.NodeURL, chain.WithTransport(tr), chain.WithInfoCache(0)), count: counted, block: f.Block}
	if f.StateURL != "" {
		s.state = state.New(f.StateURL, &state.Auth{Transport: tr, AuthURL: f.AuthURL, APIKey: f.APIKey})
	}
	return s
}

// Requests and Bytes count the HTTP requests sent to the live chain
// (retries included) and the bytes of their answers' bodies.
func (s *Live) Requests() int64 { return s.count.requests.Load() }

// Bytes: see Requests.
func (s *Live) Bytes() int64 { return s.count.bytes.Load() }

// Kind names the source for a cache: "nodeos" or "state".
func (s *Live) Kind() string {
	if s.state != nil {
		return "state"
	}
	return "nodeos"
}

// Point reads the fork block (the node's head when no block was given).
func (s *Live) Point(ctx context.Context) (Point, error) {
	info, err := s.node.GetInfo(ctx)
	if err != nil {
		return Point{}, err
	}
	p := Point{ChainID: info.ChainID, Block: s.block}
	switch {
	case p.Block == 0:
		p.Block, p.Time = info.HeadBlockNum, info.HeadBlockTime.Time()
	case p.Block > info.HeadBlockNum:
		return Point{}, fmt.Errorf("block %d is above the node's head %d", p.Block, info.HeadBlockNum)
	case s.state == nil && p.Block != info.HeadBlockNum:
		return Point{}, fmt.Errorf("block %d is not the node's head (%d): a past block is read through the state service (Remote.StateURL)", p.Block, info.HeadBlockNum)
	default:
		b, err := s.node.GetBlockInfo(ctx, p.Block)
		if err != nil {
			return Point{}, err
		}
		p.Time = b.Timestamp.Time()
	}
	s.block = p.Block
	if s.state != nil {
		s.state = s.state.At(p.Block)
	}
	return p, nil
}

// Account is Source.Account: get_account at the node.
func (s *Live) Account(ctx context.Context, n antelope.Name) (json.RawMessage, error) {
	a, err := s.node.GetAccount(ctx, n)
	if err != nil {
		var ae *chain.APIError
		if errors.As(err, &ae) && ae.Name == "account_query_exception" {
			return nil, nil
		}
		return nil, err
	}
	return a.Raw, nil
}

// Code is Source.Code: the node's code, and the ABI at the fork block.
func (s *Live) Code(ctx context.Context, n antelope.Name) (*Code, error) {
	wasm, packedABI, err := s.node.GetRawCodeAndABI(ctx, n)
	if err != nil {
		return nil, err
	}
	a, err := s.node.GetAccount(ctx, n)
	if err != nil {
		return nil, err
	}
	var times struct {
		LastCodeUpdate antelope.TimePoint `json:"last_code_update"`
	}
	if err := json.Unmarshal(a.Raw, &times); err != nil {
		return nil, fmt.Errorf("get_account %s: last_code_update: %v", n, err)
	}
	out := &Code{WASM: wasm, CodeUpdated: times.LastCodeUpdate.Time()}
	if s.state == nil {
		if len(packedABI) > 0 {
			if out.ABI, err = s.node.GetABI(ctx, n); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	abi, err := s.state.ABI(ctx, n)
	if err != nil {
		var he *httpcore.HTTPError
		if errors.As(err, &he) && he.Code == "data_abi_not_found_error" {
			return out, nil
		}
		return nil, err
	}
	if abi.BlockNum > s.block {
		return nil, fmt.Errorf("the state service answered the ABI of %s set at block %d, after the fork block %d", n, abi.BlockNum, s.block)
	}
	out.ABI, out.ABIBlock = abi.JSON, abi.BlockNum
	return out, nil
}

// Table is Source.Table, at the fork block.
func (s *Live) Table(ctx context.Context, code, scope, table antelope.Name, readers map[int]KeyReader) (*Table, error) {
	out := &Table{}
	// The table's payer, as get_table_by_scope reports it (the node's
	// current state: neither get_table_rows nor the state service tells it).
	scopes, _, err := s.node.GetTableByScope(ctx, chain.ScopeQuery{Code: code, Table: table, Lower: scope, Upper: scope, HasUpper: true}, 1)
	if err != nil {
		return nil, err
	}
	if len(scopes) == 1 && scopes[0].Scope == scope && scopes[0].Table == table {
		out.Payer = scopes[0].Payer
	}
	if s.state != nil {
		t, err := s.state.Table(ctx, code, scope, table)
		if err != nil {
			return nil, err
		}
		// A service that answered at another block (one that ignores
		// block_num answers at its head) says so here: its rows are not
		// the fork block's.
		if t.UpToBlockNum != 0 && t.UpToBlockNum != s.block {
			return nil, fmt.Errorf("the state service answered table %s %s %s at block %d, not at the fork block %d", code, scope, table, t.UpToBlockNum, s.block)
		}
		for i, r := range t.Rows {
			if i > 0 && r.Key == t.Rows[i-1].Key {
				return nil, fmt.Errorf("the state service answered table %s %s %s with two rows of primary key %d", code, scope, table, r.Key)
			}
			if r.Payer == 0 {
				return nil, fmt.Errorf("the state service answered table %s %s %s with the row of key %d without its payer", code, scope, table, r.Key)
			}
			out.Rows = append(out.Rows, Row{PK: r.Key, Payer: r.Payer, Data: append([]byte(nil), r.Data...)})
		}
	} else if out.Rows, err = s.primaryRows(ctx, code, scope, table); err != nil {
		return nil, err
	}
	// The node's order by each index, to check the keys the fork reads
	// from the rows against. The state service serves no index: nodeos's,
	// of its head, is used when it holds the very rows of the fork block.
	for pos, kr := range readers {
		order, err := s.indexOrder(ctx, code, scope, table, pos, kr.typ, out.Rows)
		if err != nil {
			return nil, err
		}
		if order == nil {
			continue
		}
		if out.Order == nil {
			out.Order = map[int][]uint64{}
		}
		out.Order[pos] = order
		// The order alone does not say the keys are the field's: a key
		// computed from it (the field plus a constant) has its order.
		why, err := s.indexKeysDiffer(ctx, code, scope, table, pos, kr, out.Rows)
		if err != nil {
			return nil, err
		}
		if why != "" {
			if out.Unlike == nil {
				out.Unlike = map[int]string{}
			}
			out.Unlike[pos] = why
		}
	}
	return out, nil
}

// primaryRows reads a table's rows with their primary keys, which
// get_table_rows does not send: a page of no rows from a lower bound has
// the first key at or above it as its next_key, and a page bounded above
// and below by that key is its row — or none, when the live chain erased
// it in between (unbounded above, nodeos would answer the row after it,
// which would be taken for it). Two requests a row: what a fork touches
// is small.
func (s *Live) primaryRows(ctx context.Context, code, scope, table antelope.Name) ([]Row, error) {
	q := antelope.TableQuery{Code: code, Scope: scope, Table: table}
	var rows []Row
	for {
		page, err := s.node.GetTableRows(ctx, q, 0)
		if err != nil {
			return nil, err
		}
		if len(page.Rows) > 0 {
			// Its more and next_key are then of its own limit: a table of
			// few rows would read as empty.
			return nil, fmt.Errorf("table %s %s %s: the node answered limit 0 with %d rows (a node or proxy taking 0 for its default limit)", code, scope, table, len(page.Rows))
		}
		if !page.More {
			return rows, nil
		}
		next, err := antelope.ParseNextKey(antelope.IndexI64, page.NextKey)
		if err != nil {
			return nil, fmt.Errorf("table %s %s %s: next_key %q: %v", code, scope, table, page.NextKey, err)
		}
		pk := next.Uint64()
		if n := len(rows); n > 0 && pk <= rows[n-1].PK {
			return nil, fmt.Errorf("table %s %s %s: the node's next_key %d does not follow %d", code, scope, table, pk, rows[n-1].PK)
		}
		one := q
		one.Lower, one.Upper = next, next
		if page, err = s.node.GetTableRows(ctx, one, 1); err != nil {
			return nil, err
		}
		if len(page.Rows) != 1 {
			return nil, fmt.Errorf("table %s %s %s: the row of key %d vanished while it was read", code, scope, table, pk)
		}
		r := page.Rows[0]
		if r.Payer == 0 {
			return nil, fmt.Errorf("table %s %s %s: the node sent the row of key %d without its payer (show_payer)", code, scope, table, pk)
		}
		rows = append(rows, Row{PK: pk, Payer: r.Payer, Data: append([]byte(nil), r.Data...)})
		if pk == math.MaxUint64 {
			return rows, nil
		}
		q.Lower = antelope.KeyUint64(pk + 1)
	}
}

// indexOrder is the primary keys of a table's rows in the node's order by
// a secondary index: the rows it sends, matched to rows by their bytes
// (rows with the same bytes have the same keys, so which is which does not
// change the order). nil when the node's rows are not those rows (a
// state-service fork's table changed since the fork block) or the node
// cannot read the index (its ABI changed): then nothing is checked.
func (s *Live) indexOrder(ctx context.Context, code, scope, table antelope.Name, pos int, kt antelope.IndexKeyType, rows []Row) ([]uint64, error) {
	byData := map[string][]uint64{}
	for _, r := range rows {
		byData[string(r.Data)] = append(byData[string(r.Data)], r.PK)
	}
	var order []uint64
	q := antelope.TableQuery{Code: code, Scope: scope, Table: table, Index: pos, KeyType: kt}
	for r, err := range s.node.TableRows(ctx, q) {
		var ae *chain.APIError
		switch {
		case errors.As(err, &ae) && s.state != nil:
			return nil, nil
		case err != nil:
			return nil, err
		}
		pks := byData[string(r.Data)]
		if len(pks) == 0 {
			if s.state != nil {
				return nil, nil
			}
			return nil, fmt.Errorf("table %s %s %s: index %d holds a row its primary index does not", code, scope, table, pos)
		}
		order = append(order, pks[0])
		byData[string(r.Data)] = pks[1:]
	}
	if len(order) != len(rows) {
		if s.state != nil {
			return nil, nil
		}
		return nil, fmt.Errorf("table %s %s %s: index %d holds %d of its %d rows", code, scope, table, pos, len(order), len(rows))
	}
	return order, nil
}

// indexKeysDiffer checks the keys a fork reads from rows by key_names
// against the node's: for each key read, the node's rows of that very key
// (bounded below and above by it) must be the rows it was read from. It
// says why not, or "" when they are. Called when the node holds the very
// rows (indexOrder matched them).
func (s *Live) indexKeysDiffer(ctx context.Context, code, scope, table antelope.Name, pos int, kr KeyReader, rows []Row) (string, error) {
	groups := map[antelope.TableKey][]string{}
	var keys []antelope.TableKey
	for _, r := range rows {
		k, err := kr.Read(r.Data)
		if err != nil {
			return "", nil // fetchUnit refuses the row itself
		}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], string(r.Data))
	}
	for _, k := range keys {
		// A zero key is an open bound: bound it otherwise.
		lower, upper, minus := k, k, []string(nil)
		if k.IsZero() {
			switch kr.typ {
			case antelope.IndexFloat64:
				lower = antelope.KeyFloat64(math.Copysign(0, -1)) // -0 == +0 in the index's order
				upper = lower
			case antelope.IndexFloat128:
				var negZero antelope.Float128
				negZero[15] = 0x80
				lower = antelope.KeyFloat128(negZero)
				upper = lower
			case antelope.IndexI128:
				lower, upper = antelope.TableKey{}, antelope.KeyUint128(antelope.Uint128{Lo: 1})
			default:
				lower, upper = antelope.TableKey{}, antelope.KeyUint64(1)
			}
			if lower.IsZero() {
				minus = groups[upper] // the rows of key 1, checked on their own
			}
		}
		q := antelope.TableQuery{Code: code, Scope: scope, Table: table, Index: pos, KeyType: kr.typ, Lower: lower, Upper: upper}
		var got []string
		for r, err := range s.node.TableRows(ctx, q) {
			if err != nil {
				return "", err
			}
			got = append(got, string(r.Data))
		}
		for _, m := range minus {
			if i := slices.Index(got, m); i >= 0 {
				got = slices.Delete(got, i, i+1)
			}
		}
		want := slices.Clone(groups[k])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			text, _ := k.Bound()
			return fmt.Sprintf("the node's rows of key %s by that index are %d, not the %d whose key_names field holds it", text, len(got), len(want)), nil
		}
	}
	return "", nil
}
