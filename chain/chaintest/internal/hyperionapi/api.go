package hyperionapi

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/shiptest"
)

// Chain is what the Hyperion API reads of the chain: its blocks (the
// branch it follows, as state history serves them), and its chain API,
// which Hyperion proxies under /v1/chain/.
type Chain interface {
	// Blocks is the chain's blocks, as its state-history endpoint serves
	// them.
	Blocks() shiptest.BlockSource
	// FirstBlock is the chain's first block: the index starts there.
	FirstBlock() uint32
	// ChainAPI answers the nodeos chain API's endpoint (get_info,
	// get_table_rows…) with its HTTP status and body.
	ChainAPI(endpoint string, body []byte) (int, any)
	// BadRequest is nodeos's answer to a request it cannot parse
	// (invalid_http_request), with detail.
	BadRequest(detail string) (int, any)
	// ChainID is the chain's id.
	ChainID() antelope.Checksum256
	// HeadTime is the head block's time.
	HeadTime() time.Time
}

// API serves the Hyperion v2 history API over a Chain; chaintest's
// API (an alias) documents what it serves.
type API struct {
	c          Chain
	v3         bool
	maxActions int
	maxDeltas  int
	lag        uint32

	mu     sync.Mutex
	blocks []hyBlock // from the chain's first block
	codecs map[antelope.Name]*abicodec.Codec
}

// Option configures an API.
type Option func(*API)

// V3 answers as Hyperion 3.3 does: a bad parameter is a 500, not
// a 400; sort=asc needs no range; removed rows are indexed (present 0).
func V3() Option { return func(h *API) { h.v3 = true } }

// Limits sets the largest limit of get_actions (refused above it,
// as Hyperion does; default 1000) and get_deltas (capped; default 1000).
func Limits(actions, deltas int) Option {
	return func(h *API) { h.maxActions, h.maxDeltas = actions, deltas }
}

// Lag keeps the index n blocks behind the head, as an indexer
// that has not caught up: last_indexed_block says where it is.
func Lag(n uint32) Option { return func(h *API) { h.lag = n } }

// New returns a Hyperion v2 API over the chain c.
func New(c Chain, opts ...Option) *API {
	h := &API{c: c, maxActions: 1000, maxDeltas: 1000, codecs: map[antelope.Name]*abicodec.Codec{}}
	for _, o := range opts {
		o(h)
	}
	return h
}

// refresh brings the index to the chain's current branch and returns it.
func (h *API) refresh() (blocks []hyBlock, head, lib uint32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for {
		if blocks, head, lib, ok := h.refreshLocked(); ok {
			return blocks, head, lib
		}
	}
}

// refreshLocked is one pass of refresh, with h.mu held. The chain is read
// a block at a time and may fork between two reads: a block whose
// previous id is not the block indexed below it is of a branch that
// replaced the blocks read before it, and the pass stops (false) for
// refresh to read again, rather than answer with blocks of two branches.
func (h *API) refreshLocked() (blocks []hyBlock, head, lib uint32, ok bool) {
	src := h.c.Blocks()
	head, lib = src.Heads()
	first := h.c.FirstBlock()
	target := head - min(h.lag, head-first+1)
	for n := first; n <= target; n++ {
		b, ok := src.Block(n)
		if !ok {
			target = n - 1
			break
		}
		i := int(n - first)
		if i > 0 && b.Previous != h.blocks[i-1].id {
			return nil, 0, 0, false
		}
		if i < len(h.blocks) && h.blocks[i].id == b.ID {
			continue
		}
		if i < len(h.blocks) { // a fork: index the new branch from here
			h.blocks = h.blocks[:i]
			h.codecs = map[antelope.Name]*abicodec.Codec{}
			for _, kept := range h.blocks {
				for acct, abi := range kept.abis {
					if c, err := abicodec.New(abi); err == nil && len(abi) > 0 {
						h.codecs[acct] = c
					} else {
						delete(h.codecs, acct)
					}
				}
			}
		}
		h.blocks = append(h.blocks, indexBlock(b, h.codecs, !h.v3))
	}
	if n := int(target-first) + 1; n < len(h.blocks) {
		h.blocks = h.blocks[:max(n, 0)]
	}
	return h.blocks, head, lib, true
}

// ServeHTTP answers one request.
func (h *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	q := r.URL.Query()
	var status int
	var out any
	switch p := r.URL.Path; {
	case p == "/v2/history/get_actions":
		status, out = h.getActions(q)
	case p == "/v2/history/get_deltas":
		status, out = h.getDeltas(q)
	case p == "/v2/history/get_transaction":
		status, out = h.getTransaction(q)
	case p == "/v2/state/get_tokens":
		status, out = h.getTokens(q)
	case p == "/v2/health":
		status, out = h.health()
	case p == "/v1/chain/get_currency_stats":
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		status, out = h.currencyStats(body)
	case strings.HasPrefix(p, "/v1/chain/"):
		body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		status, out = h.c.ChainAPI(strings.TrimPrefix(p, "/v1/chain/"), body)
	default:
		status, out = 404, map[string]any{"message": "Route GET:" + p + " not found", "error": "Not Found", "statusCode": 404}
	}
	if m, ok := out.(map[string]any); ok && status == 200 && strings.HasPrefix(r.URL.Path, "/v2/") {
		m["query_time_ms"] = float64(time.Since(start).Microseconds()) / 1000
	}
	data, ok := out.([]byte)
	if !ok {
		data, _ = json.Marshal(out)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(data)
}

// badRequest is Fastify's answer to an error Hyperion raises: 400 in 4.x
// (badRequest in get_actions/functions.ts), 500 in 3.x (a plain Error).
func (h *API) badRequest(msg string) (int, any) {
	if h.v3 {
		return 500, map[string]any{"statusCode": 500, "error": "Internal Server Error", "message": msg}
	}
	return 400, map[string]any{"statusCode": 400, "error": "Bad Request", "message": msg}
}

// meta is what timedQuery adds to every answer.
func meta(blocks []hyBlock, first uint32) map[string]any {
	m := map[string]any{"cached": false}
	if n := len(blocks); n > 0 {
		m["last_indexed_block"] = first + uint32(n) - 1
		m["last_indexed_block_time"] = hyTime(blocks[n-1].time)
	}
	return m
}

// bound is after or before: a block number, or an ISO time.
type bound struct {
	block uint32
	time  time.Time
	isSet bool
}

// readBound reads after or before; false for a time that does not parse.
func readBound(v string) (bound, bool) {
	if v == "" {
		return bound{}, true
	}
	if strings.ContainsAny(v, "T ") {
		t, err := time.Parse("2006-01-02T15:04:05.999999999Z07:00", strings.Replace(v, " ", "T", 1))
		if err != nil {
			if t, err = time.Parse("2006-01-02T15:04:05.999999999", strings.Replace(v, " ", "T", 1)); err != nil {
				return bound{}, false
			}
		}
		return bound{time: t, isSet: true}, true
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n == 0 {
		return bound{}, true // parseInt(…) > 0 is false: no bound
	}
	return bound{block: uint32(n), isSet: true}, true
}

// rangeOf reads a generic filter's value: "a-b" or "a".
func rangeOf(v string) (lo, hi uint64, ok bool) {
	if a, b, cut := strings.Cut(v, "-"); cut {
		x, err1 := strconv.ParseUint(a, 10, 64)
		y, err2 := strconv.ParseUint(b, 10, 64)
		return x, y, err1 == nil && err2 == nil
	}
	x, err := strconv.ParseUint(v, 10, 64)
	return x, x, err == nil
}

// skipLimit is getSkipLimit.
func (h *API) skipLimit(q map[string][]string, max int) (skip, limit int, status int, out any) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	if s := get("skip"); s != "" {
		skip, _ = strconv.Atoi(s)
		if skip < 0 {
			status, out = h.badRequest("invalid skip parameter")
			return
		}
		if skip > 10000 {
			status, out = h.badRequest("skip is above maximum internal limit: 10000. please limit your search scope or use pagination with before/after parameters")
			return
		}
	}
	if s := get("limit"); s != "" {
		limit, _ = strconv.Atoi(s)
		if limit < 1 {
			status, out = h.badRequest("invalid limit parameter")
			return
		}
		if limit > max {
			status, out = h.badRequest("limit too big, maximum: " + strconv.Itoa(max))
			return
		}
	}
	if limit == 0 {
		limit = 10
	}
	return skip, limit, 0, nil
}

func page[T any](items []T, skip, limit int) []T {
	if skip >= len(items) {
		return []T{}
	}
	return items[skip:min(len(items), skip+limit)]
}

func (h *API) getActions(q map[string][]string) (int, any) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	skip, limit, status, out := h.skipLimit(q, h.maxActions)
	if status != 0 {
		return status, out
	}
	after, ok1 := readBound(get("after"))
	before, ok2 := readBound(get("before"))
	if !ok1 || !ok2 {
		return h.badRequest("Invalid time value") // JavaScript's RangeError
	}
	desc := true
	switch get("sort") {
	case "", "desc", "-1":
	case "asc", "1":
		if !h.v3 && !after.isSet && !before.isSet {
			return h.badRequest(`sort=asc requires a valid "after" or "before" (ISO date or block number) to bound the search`)
		}
		desc = false
	default:
		return h.badRequest("invalid sort direction")
	}
	var account antelope.Name
	if a := get("account"); a != "" {
		account, _ = antelope.ParseName(a)
	}
	type pair struct{ code, name string }
	var filters []pair
	for _, f := range strings.Split(get("filter"), ",") {
		if c, n, ok := strings.Cut(f, ":"); ok && f != "*:*" {
			filters = append(filters, pair{c, n})
		}
	}
	gsLo, gsHi, gsOK := rangeOf(get("global_sequence"))
	blocks, head, lib := h.refresh()
	_ = head
	var hits []hyAction
	for _, b := range blocks {
		for _, a := range b.actions {
			if after.isSet && (after.block > 0 && a.BlockNum < after.block || !after.time.IsZero() && b.time.Before(after.time)) ||
				before.isSet && (before.block > 0 && a.BlockNum > before.block || !before.time.IsZero() && b.time.After(before.time)) {
				continue
			}
			if get("global_sequence") != "" && (!gsOK || a.GlobalSequence < gsLo || a.GlobalSequence > gsHi) {
				continue
			}
			if account != 0 && !slices.Contains(a.notified, account) && !slices.Contains(a.actors, account) {
				continue
			}
			if actor := get("act.authorization.actor"); actor != "" && !slices.ContainsFunc(a.Act.Authorization, func(p hyPermission) bool { return p.Actor == actor }) {
				continue
			}
			if len(filters) > 0 && !slices.ContainsFunc(filters, func(f pair) bool {
				return (f.code == "*" || f.code == "" || f.code == a.Act.Account) && (f.name == "*" || f.name == "" || f.name == a.Act.Name)
			}) {
				continue
			}
			hits = append(hits, a)
		}
	}
	slices.SortStableFunc(hits, func(x, y hyAction) int {
		if desc {
			return cmpU64(y.GlobalSequence, x.GlobalSequence)
		}
		return cmpU64(x.GlobalSequence, y.GlobalSequence)
	})
	m := meta(blocks, h.c.FirstBlock())
	m["total"] = map[string]any{"value": len(hits), "relation": "eq"}
	m["lib"] = 0
	if get("checkLib") == "true" {
		m["lib"] = lib
	}
	m["actions"] = page(hits, skip, limit)
	return 200, m
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (h *API) getDeltas(q map[string][]string) (int, any) {
	skip, limit, desc := 0, 10, true
	var terms [][2]string
	var after, before bound
	for k, vs := range q {
		v := vs[0]
		switch k {
		case "limit":
			if limit, _ = strconv.Atoi(v); limit < 1 {
				return 200, []byte(`"invalid limit parameter"`)
			}
		case "skip":
			if skip, _ = strconv.Atoi(v); skip < 0 {
				return 200, []byte(`"invalid skip parameter"`)
			}
		case "sort":
			switch v {
			case "asc", "1":
				desc = false
			case "desc", "-1":
			default:
				return 200, []byte(`"invalid sort direction"`)
			}
		case "after", "before":
			b, ok := readBound(v)
			if !ok {
				return h.badRequest("Invalid time value [" + k + "]")
			}
			if k == "after" {
				after = b
			} else {
				before = b
			}
		default:
			terms = append(terms, [2]string{k, v})
		}
	}
	limit = min(limit, h.maxDeltas)
	blocks, _, _ := h.refresh()
	var hits []hyDelta
	for _, b := range blocks {
		for _, d := range b.deltas {
			if after.block > 0 && d.BlockNum < after.block || !after.time.IsZero() && b.time.Before(after.time) ||
				before.block > 0 && d.BlockNum > before.block || !before.time.IsZero() && b.time.After(before.time) {
				continue
			}
			if slices.ContainsFunc(terms, func(t [2]string) bool { return !deltaTerm(&d, t[0], t[1]) }) {
				continue
			}
			hits = append(hits, d)
		}
	}
	if desc {
		slices.Reverse(hits) // by block, newest first
		slices.SortStableFunc(hits, func(x, y hyDelta) int { return cmpU64(uint64(y.BlockNum), uint64(x.BlockNum)) })
	}
	m := meta(blocks, h.c.FirstBlock())
	m["total"] = map[string]any{"value": len(hits), "relation": "eq"}
	m["query_time"] = nil
	m["deltas"] = page(hits, skip, limit)
	return 200, m
}

// deltaTerm is a term (or terms, comma-separated) match on a field.
func deltaTerm(d *hyDelta, field, value string) bool {
	var have string
	switch field {
	case "code":
		have = d.Code
	case "scope":
		have = d.Scope
	case "table":
		have = d.Table
	case "payer":
		have = d.Payer
	case "primary_key":
		have = d.PrimaryKey
	case "present":
		have = strconv.Itoa(d.Present)
	case "block_num":
		have = strconv.FormatUint(uint64(d.BlockNum), 10)
	default:
		return true // a field Hyperion would look up and this index lacks: no filter
	}
	return slices.Contains(strings.Split(value, ","), have)
}

func (h *API) getTransaction(q map[string][]string) (int, any) {
	id := strings.ToLower(strings.Join(q["id"], ""))
	if len(id) == 0 {
		return h.badRequest("querystring must have required property 'id'")
	}
	blocks, _, lib := h.refresh()
	m := meta(blocks, h.c.FirstBlock())
	m["trx_id"], m["executed"], m["lib"], m["cached_lib"] = id, false, lib, false
	var acts []hyAction
	for _, b := range blocks {
		for _, a := range b.actions {
			if a.TrxID == id {
				acts = append(acts, a)
			}
		}
	}
	if len(acts) > 0 {
		slices.SortFunc(acts, func(x, y hyAction) int { return cmpU64(x.GlobalSequence, y.GlobalSequence) })
		m["executed"], m["actions"] = true, acts
	}
	return 200, m
}

func (h *API) getTokens(q map[string][]string) (int, any) {
	account := strings.Join(q["account"], "")
	blocks, _, _ := h.refresh()
	type key struct{ code, symbol string }
	type token struct {
		Symbol    string          `json:"symbol"`
		Precision int             `json:"precision"`
		Amount    json.RawMessage `json:"amount"`
		Contract  string          `json:"contract"`
	}
	balances := map[key]token{}
	var order []key
	for _, b := range blocks {
		for _, d := range b.deltas {
			if d.Table != "accounts" || d.Scope != account || d.Data == nil {
				continue
			}
			var row struct {
				Amount json.RawMessage `json:"amount"`
				Symbol string          `json:"symbol"`
			}
			if json.Unmarshal(d.Data, &row) != nil || row.Symbol == "" {
				continue
			}
			k := key{d.Code, row.Symbol}
			if d.Present == 0 {
				delete(balances, k)
				continue
			}
			if _, ok := balances[k]; !ok {
				order = append(order, k)
			}
			balances[k] = token{Symbol: row.Symbol, Precision: h.precision(d.Code, row.Symbol), Amount: row.Amount, Contract: d.Code}
		}
	}
	tokens := []token{}
	for _, k := range order {
		if t, ok := balances[k]; ok {
			tokens = append(tokens, t)
		}
	}
	m := meta(blocks, h.c.FirstBlock())
	m["account"], m["tokens"] = account, tokens
	return 200, m
}

// precision is a token's precision, from its stat row (Hyperion asks
// get_currency_balance); -1 when there is none.
func (h *API) precision(code, symbol string) int {
	body, _ := json.Marshal(map[string]string{"code": code, "symbol": symbol})
	status, out := h.currencyStats(body)
	stats, ok := out.(map[string]any)
	if status != 200 || !ok {
		return -1
	}
	s, _ := stats[symbol].(map[string]any)
	supply, _ := s["supply"].(string)
	a, err := antelope.ParseAsset(supply)
	if err != nil {
		return -1
	}
	return int(a.Symbol.Precision)
}

// currencyStats is nodeos's get_currency_stats, from the stat table.
func (h *API) currencyStats(body []byte) (int, any) {
	var req struct {
		Code   string `json:"code"`
		Symbol string `json:"symbol"`
	}
	if json.Unmarshal(body, &req) != nil {
		return h.c.BadRequest("Unable to parse valid input from POST body")
	}
	tr, _ := json.Marshal(map[string]any{"code": req.Code, "scope": req.Symbol, "table": "stat", "json": false, "limit": 1})
	status, out := h.c.ChainAPI("get_table_rows", tr)
	if status != 200 {
		return status, out
	}
	data, _ := json.Marshal(out)
	var rows struct {
		Rows []string `json:"rows"`
	}
	code, err := antelope.ParseName(req.Code)
	if json.Unmarshal(data, &rows) != nil || err != nil {
		return 500, map[string]any{"message": "get_table_rows answered no rows"}
	}
	h.refresh()
	h.mu.Lock()
	codec := h.codecs[code]
	h.mu.Unlock()
	res := map[string]any{}
	for _, r := range rows.Rows {
		b, err := hex.DecodeString(r)
		if err != nil || codec == nil {
			continue
		}
		j, err := codec.TableJSON(antelope.MustName("stat"), b)
		var v map[string]any
		if err == nil && json.Unmarshal(j, &v) == nil {
			res[req.Symbol] = v
		}
	}
	return 200, res
}

func (h *API) health() (int, any) {
	blocks, head, lib := h.refresh()
	first := h.c.FirstBlock()
	last := first + uint32(len(blocks)) - 1
	version := "4.0.7"
	if h.v3 {
		version = "3.3.10"
	}
	id := h.c.ChainID()
	return 200, map[string]any{
		"version": version, "version_hash": "chaintest", "host": "chaintest",
		"health": []map[string]any{
			{"service": "NodeosRPC", "status": "OK", "cached": false, "query_time_ms": 0, "service_data": map[string]any{
				"head_block_num": head, "head_block_time": hyTime(h.c.HeadTime()), "time_offset": 0,
				"last_irreversible_block": lib, "chain_id": hex.EncodeToString(id[:])}},
			{"service": "Elasticsearch", "status": "OK", "cached": false, "query_time_ms": 0, "service_data": map[string]any{
				"first_indexed_block": first, "last_indexed_block": last, "total_indexed_blocks": len(blocks),
				"active_shards": "100.0%", "missing_blocks": 0, "missing_pct": "0.00%", "head_offset": head - last}},
		},
		"limits":   map[string]any{"get_actions": h.maxActions, "get_deltas": h.maxDeltas},
		"features": map[string]any{"index_all_deltas": true},
	}
}
