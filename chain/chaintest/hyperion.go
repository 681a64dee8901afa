package chaintest

import (
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/hyperionapi"
	"github.com/antelopego/abigen/ship/shiptest"
)

// HyperionAPI serves the Hyperion v2 history API from the chain's own
// blocks, in Hyperion's own shapes, for testing history code against the
// transactions a test really ran: /v2/history/get_actions, get_deltas and
// get_transaction, /v2/state/get_tokens, /v2/health, and /v1/chain/* (the
// chain API Hyperion proxies, with get_currency_stats). Serve it with
// net/http/httptest:
//
//	srv := httptest.NewServer(node.Hyperion())
//	defer srv.Close()
//	h := hyperion.New(srv.URL)
//
// Its index is the current branch of the chain: a fork's undone actions
// and rows disappear, as a Hyperion that follows forks removes them. Data
// is what Hyperion's deserializer and indexer modules make of it
// (internal/hyperionapi/rewrite.go): a transfer's extra amount and symbol, buyram's
// and delegatebw's floats, updateauth's empty lists deleted, newaccount's
// name as newact, an accounts row's balance as {amount, symbol}, hex for
// data no ABI deserializes. Every contract's rows are indexed (Hyperion's
// index_all_deltas).
type HyperionAPI = hyperionapi.API

// HyperionOption configures a HyperionAPI.
type HyperionOption = hyperionapi.Option

// HyperionV3 answers as Hyperion 3.3 does: a bad parameter is a 500, not
// a 400; sort=asc needs no range; removed rows are indexed (present 0).
func HyperionV3() HyperionOption { return hyperionapi.V3() }

// HyperionLimits sets the largest limit of get_actions (refused above it,
// as Hyperion does; default 1000) and get_deltas (capped; default 1000).
func HyperionLimits(actions, deltas int) HyperionOption { return hyperionapi.Limits(actions, deltas) }

// HyperionLag keeps the index n blocks behind the head, as an indexer
// that has not caught up: last_indexed_block says where it is.
func HyperionLag(n uint32) HyperionOption { return hyperionapi.Lag(n) }

// Hyperion returns a Hyperion v2 API over the chain (see HyperionAPI).
func (c *Chain) Hyperion(opts ...HyperionOption) *HyperionAPI {
	return hyperionapi.New(hyperionChain{c}, opts...)
}

// hyperionChain is the chain as the Hyperion API reads it
// (hyperionapi.Chain).
type hyperionChain struct{ c *Chain }

func (h hyperionChain) Blocks() shiptest.BlockSource { return h.c.BlockSource() }
func (h hyperionChain) FirstBlock() uint32           { return h.c.opts.firstBlock }
func (h hyperionChain) ChainAPI(endpoint string, body []byte) (int, any) {
	return h.c.chainAPI(endpoint, body)
}
func (h hyperionChain) BadRequest(detail string) (int, any) { return badRequest(detail) }
func (h hyperionChain) ChainID() antelope.Checksum256       { return h.c.ChainID() }
func (h hyperionChain) HeadTime() time.Time                 { return h.c.Head().Time }
