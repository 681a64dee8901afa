package hyperion

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"github.com/antelopego/abigen/antelope"
)

// Transaction is a get_transaction answer: the actions of one transaction.
type Transaction struct {
	Executed bool                 // Hyperion found it
	ID       antelope.Checksum256 // trx_id as asked
	LIB      uint32               // the last irreversible block when asked
	Actions  []Action             // by global sequence, notifications merged into their action's receipts
	Error    string               // Hyperion's "error" field ("no data near block_hint", …)
	Meta     Meta                 // what the answer says of the index
}

// GetTransaction asks /v2/history/get_transaction for a transaction's
// actions. blockHint (0: none) narrows Hyperion's search to one index.
func (c *Client) GetTransaction(ctx context.Context, id antelope.Checksum256, blockHint uint32) (*Transaction, error) {
	q := url.Values{"id": {hex.EncodeToString(id[:])}}
	if blockHint > 0 {
		q.Set("block_hint", strconv.FormatUint(uint64(blockHint), 10))
	}
	body, err := c.get(ctx, "get_transaction", "/v2/history/get_transaction", q)
	if err != nil {
		return nil, err
	}
	return ParseTransaction(body)
}

// parseTransaction is ParseTransaction before its error is scrubbed.
func parseTransaction(body []byte) (*Transaction, error) {
	var w struct {
		wireMeta
		Executed bool         `json:"executed"`
		TrxID    string       `json:"trx_id"`
		Actions  []wireAction `json:"actions"`
		Error    string       `json:"error"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, answerErr("get_transaction", body, err)
	}
	m, err := w.meta()
	if err != nil {
		return nil, answerErr("get_transaction", body, err)
	}
	var e errs
	t := &Transaction{Executed: w.Executed, ID: e.id(w.TrxID, "trx_id"), LIB: m.LIB, Error: w.Error, Meta: m}
	if e.err != nil {
		return nil, answerErr("get_transaction", nil, e.err)
	}
	for i := range w.Actions {
		a, err := w.Actions[i].action()
		if err != nil {
			return nil, answerErr("get_transaction", nil, err)
		}
		t.Actions = append(t.Actions, a)
	}
	return t, nil
}

// Token is one token balance of get_tokens.
type Token struct {
	Contract  antelope.Name // the token contract
	Symbol    string        // the symbol code
	Precision int           // -1 when Hyperion did not know it
	// Amount is the balance as Hyperion wrote it: a float's decimal text,
	// which Asset turns into an exact asset when it can.
	Amount string
	Error  string // Hyperion's error for this token (its precision lookup failed)
}

// Asset is the balance as an asset, when the float Hyperion wrote has an
// exact decimal form at the token's precision (see the package doc).
func (t Token) Asset() (antelope.Asset, error) {
	code, err := antelope.ParseSymbolCode(t.Symbol)
	if err != nil {
		return antelope.Asset{}, err
	}
	if t.Precision < 0 || t.Precision > antelope.MaxPrecision {
		return antelope.Asset{}, fmt.Errorf("hyperion: the precision of %s is unknown", t.Symbol)
	}
	return exactAsset(t.Amount, antelope.Symbol{Precision: uint8(t.Precision), Code: code})
}

// GetTokens asks /v2/state/get_tokens for an account's token balances
// (Hyperion 4.x needs MongoDB for it, and answers an error field without).
func (c *Client) GetTokens(ctx context.Context, account antelope.Name) ([]Token, error) {
	body, err := c.get(ctx, "get_tokens", "/v2/state/get_tokens", url.Values{"account": {account.String()}, "limit": {"1000"}})
	if err != nil {
		return nil, err
	}
	return ParseTokens(body)
}

// parseTokens is ParseTokens before its error is scrubbed.
func parseTokens(body []byte) ([]Token, error) {
	var w struct {
		Error  string `json:"error"`
		Tokens []struct {
			Symbol    string   `json:"symbol"`
			Precision *flex    `json:"precision"`
			Amount    jsFloat  `json:"amount"`
			Contract  jsonName `json:"contract"`
			Error     string   `json:"error"`
		} `json:"tokens"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, answerErr("get_tokens", body, err)
	}
	if w.Error != "" && w.Tokens == nil {
		return nil, &Error{Route: "get_tokens", Status: 200, Message: w.Error}
	}
	out := make([]Token, 0, len(w.Tokens))
	for _, t := range w.Tokens {
		var e errs
		tok := Token{Contract: e.n(t.Contract, "contract"), Symbol: t.Symbol, Amount: string(t.Amount), Error: t.Error, Precision: -1}
		if t.Precision != nil && *t.Precision != "" {
			tok.Precision = int(e.u(*t.Precision, 8, "precision"))
		}
		if e.err != nil {
			return nil, answerErr("get_tokens", nil, e.err)
		}
		out = append(out, tok)
	}
	return out, nil
}

// Health is a /v2/health answer.
type Health struct {
	Version  string    // Hyperion's version ("4.0.7")
	Host     string    // the server name it reports
	Services []Service // the state of each service it depends on
	// LastIndexedBlock is Elasticsearch's last indexed block, and
	// HeadBlock the node's head: the index is HeadBlock-LastIndexedBlock
	// behind.
	LastIndexedBlock, HeadBlock, LastIrreversible uint32
	// Limits are the node's maximum page sizes (get_actions, get_deltas,
	// …), when it says.
	Limits map[string]int
}

// Service is one service's state in Health.
type Service struct {
	Name   string          // "Elasticsearch", "NodeosRPC", "RabbitMq", "StateHistory"
	Status string          // "OK", "Error", …
	Data   json.RawMessage // service_data
}

// Health asks /v2/health.
func (c *Client) Health(ctx context.Context) (*Health, error) {
	body, err := c.get(ctx, "health", "/v2/health", nil)
	if err != nil {
		return nil, err
	}
	return ParseHealth(body)
}

// parseHealth is ParseHealth before its error is scrubbed.
func parseHealth(body []byte) (*Health, error) {
	var w struct {
		Version string `json:"version"`
		Host    string `json:"host"`
		Health  []struct {
			Service string          `json:"service"`
			Status  any             `json:"status"`
			Data    json.RawMessage `json:"service_data"`
		} `json:"health"`
		Limits map[string]any `json:"limits"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, answerErr("health", body, err)
	}
	h := &Health{Version: w.Version, Host: w.Host, Limits: map[string]int{}}
	for k, v := range w.Limits {
		if f, ok := v.(float64); ok && f >= 0 && f < 1<<31 {
			h.Limits[k] = int(f)
		}
	}
	for _, s := range w.Health {
		h.Services = append(h.Services, Service{Name: s.Service, Status: fmt.Sprint(s.Status), Data: s.Data})
		var d struct {
			LastIndexed flex `json:"last_indexed_block"`
			Head        flex `json:"head_block_num"`
			LIB         flex `json:"last_irreversible_block"`
		}
		if len(s.Data) == 0 || json.Unmarshal(s.Data, &d) != nil {
			continue
		}
		var e errs
		switch s.Service {
		case "Elasticsearch":
			h.LastIndexedBlock = uint32(e.u(d.LastIndexed, 32, "last_indexed_block"))
		case "NodeosRPC":
			h.HeadBlock = uint32(e.u(d.Head, 32, "head_block_num"))
			h.LastIrreversible = uint32(e.u(d.LIB, 32, "last_irreversible_block"))
		}
		if e.err != nil {
			return nil, answerErr("health", nil, e.err)
		}
	}
	return h, nil
}

// currencyPrecision asks the chain API Hyperion proxies for a token's
// stat, and remembers the answer (a symbol's precision never changes).
func (c *Client) currencyPrecision(ctx context.Context, contract antelope.Name, code antelope.SymbolCode) (uint8, error) {
	req, _ := json.Marshal(map[string]string{"code": contract.String(), "symbol": code.String()})
	body, err := c.do(ctx, "get_currency_stats", "POST", "/v1/chain/get_currency_stats", nil, req)
	if err != nil {
		return 0, err
	}
	var stats map[string]json.RawMessage
	if err := json.Unmarshal(body, &stats); err != nil {
		return 0, scrubbed(answerErr("get_currency_stats", body, err))
	}
	var s struct {
		Supply string `json:"supply"`
	}
	if raw, ok := stats[code.String()]; !ok || json.Unmarshal(raw, &s) != nil {
		return 0, fmt.Errorf("hyperion: %s has no stat for %s", contract, code)
	}
	a, err := antelope.ParseAsset(s.Supply)
	if err != nil {
		return 0, fmt.Errorf("hyperion: %s's stat for %s: %w", contract, code, err)
	}
	return a.Symbol.Precision, nil
}

// precisionOf is c.precision with a cache.
func (c *Client) precisionOf(ctx context.Context, contract antelope.Name, code antelope.SymbolCode) (uint8, error) {
	k := precisionKey{contract, code}
	c.mu.Lock()
	p, ok := c.precisions[k]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := c.precision(ctx, contract, code)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.precisions[k] = p
	c.mu.Unlock()
	return p, nil
}
