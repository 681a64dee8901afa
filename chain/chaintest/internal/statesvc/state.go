package statesvc

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/model"
)

// The state service's /v0/state endpoints, which serve ABIs and tables as
// they were at any block. Errors have the service's documented shape
// {code, trace_id, message, details}.

// Chain is what the state service reads of the chain, while the chain
// holds its lock for the request.
type Chain interface {
	// Head is the head block's number, FirstBlock the chain's first.
	Head() uint32
	FirstBlock() uint32
	// StateAt is the chain's tables at the end of block n (FirstBlock ≤ n
	// ≤ Head).
	StateAt(n uint32) *store.DB
	// BlockID is block n's id (FirstBlock ≤ n ≤ Head).
	BlockID(n uint32) antelope.Checksum256
	// LastIrreversible is the last irreversible block's number.
	LastIrreversible() uint32
	// ABIAt is the ABI of account as of block n, as JSON as it was set,
	// and the block it was set in; ok is false when it had none.
	ABIAt(account antelope.Name, n uint32) (json []byte, setIn uint32, ok bool)
}

// Error is an error answer of the state service or its token service;
// details may be nil.
func Error(status int, code, msg string, details map[string]any) (int, any) {
	body := map[string]any{"code": code, "trace_id": "chaintest", "message": msg}
	if details != nil {
		body["details"] = details
	}
	return status, body
}

// invalid is the state service's request_validation_error for one field.
func invalid(field, msg string) (int, any) {
	return Error(400, "request_validation_error", "The request is invalid.",
		map[string]any{"errors": map[string][]string{field: {msg}}})
}

// Serve answers one request of endpoint (the path after /v0/state/) over
// c, once tokens has let its bearer token through. The chain's lock is
// held.
func Serve(c Chain, tokens *Tokens, r *http.Request, endpoint string) (int, any) {
	if status, out := tokens.Check(r); status != 0 {
		return status, out
	}
	q := r.URL.Query()
	if endpoint == "abi" {
		return stateABI(c, q)
	}
	state, block, status, out := stateAt(c, q.Get("block_num"))
	if status != 0 {
		return status, out
	}
	switch endpoint {
	case "table", "table/row":
		code, scope, table, field, bad := tableArgs(q)
		if bad != "" {
			return invalid(field, bad)
		}
		rows := state.Sorted(store.TableID{Code: code, Scope: scope, Table: table}, 1)
		resp := stateHeader(c, block)
		if endpoint == "table/row" {
			pk, err := strconv.ParseUint(q.Get("primary_key"), 10, 64)
			if err != nil {
				if n, err2 := antelope.ParseName(q.Get("primary_key")); err2 == nil {
					pk = uint64(n)
				} else {
					return invalid("primary_key", "The primary_key field must be a uint64 or a name")
				}
			}
			resp["row"] = nil
			for _, row := range rows {
				if row.PK == pk {
					resp["row"] = stateRow(row, q)
				}
			}
			return 200, resp
		}
		list := []any{}
		for _, row := range rows {
			list = append(list, stateRow(row, q))
		}
		resp["rows"] = list
		return 200, resp
	case "table_scopes":
		code, _ := antelope.ParseName(q.Get("account"))
		table, _ := antelope.ParseName(q.Get("table"))
		scopes := []string{}
		for _, id := range state.Scopes(code) {
			if id.Table == table {
				scopes = append(scopes, id.Scope.String())
			}
		}
		return 200, map[string]any{"block_num": block, "scopes": scopes}
	case "tables/scopes":
		code, _ := antelope.ParseName(q.Get("account"))
		table, _ := antelope.ParseName(q.Get("table"))
		resp := stateHeader(c, block)
		tables := []any{}
		for _, s := range strings.Split(q.Get("scopes"), "|") {
			scope, err := antelope.ParseName(s)
			if err != nil {
				return invalid("scopes", "The scopes field must be valid EOS names separated by |: "+err.Error())
			}
			list := []any{}
			for _, row := range state.Sorted(store.TableID{Code: code, Scope: scope, Table: table}, 1) {
				list = append(list, stateRow(row, q))
			}
			tables = append(tables, map[string]any{"account": code.String(), "scope": scope.String(), "rows": list})
		}
		resp["tables"] = tables
		return 200, resp
	}
	return Error(404, "route_not_found_error", "Route not found.", nil)
}

// blockParam reads block_num: 0 or absent is the head.
func blockParam(c Chain, param string) (uint32, int, any) {
	head := c.Head()
	if param == "" || param == "0" {
		return head, 0, nil
	}
	n, err := strconv.ParseUint(param, 10, 32)
	if err != nil {
		status, out := invalid("block_num", "The block_num field must be an integer")
		return 0, status, out
	}
	if uint32(n) > head {
		status, out := Error(400, "app_block_num_higher_than_head_block_error", "The requested block num is higher than the current head block num.",
			map[string]any{"request_block_num": n, "head_block_num": head, "last_written_block_num": head})
		return 0, status, out
	}
	return uint32(n), 0, nil
}

// stateAt is the state as of block_num (the end of that block; 0 or
// absent: the head).
func stateAt(c Chain, param string) (*store.DB, uint32, int, any) {
	n, status, out := blockParam(c, param)
	if status != 0 {
		return nil, 0, status, out
	}
	if first := c.FirstBlock(); n < first {
		status, out := invalid("block_num", "The block_num field is before the chain's first block "+strconv.FormatUint(uint64(first), 10)+" (chaintest)")
		return nil, 0, status, out
	}
	return c.StateAt(n), n, 0, nil
}

func stateHeader(c Chain, block uint32) map[string]any {
	lib := c.LastIrreversible()
	return map[string]any{"up_to_block_id": c.BlockID(block), "up_to_block_num": block,
		"last_irreversible_block_id": c.BlockID(lib), "last_irreversible_block_num": lib}
}

func tableArgs(q map[string][]string) (code, scope, table antelope.Name, field, bad string) {
	var err error
	if code, err = antelope.ParseName(first(q["account"])); err != nil || code == 0 {
		return 0, 0, 0, "account", "The account field must be a valid EOS name"
	}
	if scope, err = antelope.ParseName(first(q["scope"])); err != nil {
		return 0, 0, 0, "scope", "The scope field must be a valid EOS name"
	}
	if table, err = antelope.ParseName(first(q["table"])); err != nil || table == 0 {
		return 0, 0, 0, "table", "The table field must be a valid EOS name"
	}
	return code, scope, table, "", ""
}

// stateRow prints a row as the state service does: its key in key_type's
// form (name by default, uint64, hex), payer, and the hex row.
func stateRow(r *store.Row, q map[string][]string) map[string]any {
	key := antelope.Name(r.PK).String()
	if kt := q["key_type"]; len(kt) > 0 {
		switch kt[0] {
		case "uint64":
			key = strconv.FormatUint(r.PK, 10)
		case "hex", "hex_be":
			key = strconv.FormatUint(r.PK, 16)
		}
	}
	return map[string]any{"key": key, "payer": r.Payer.String(), "hex": hex.EncodeToString(r.Data)}
}

// stateABI answers the ABI at a block: the version set last at or before
// it, with the block it was set in. JSON is sent as it was set, byte for
// byte; unless json is "true" or "1" (the service's default), the packed
// ABI as hex.
func stateABI(c Chain, q map[string][]string) (int, any) {
	acct, err := antelope.ParseName(first(q["account"]))
	if err != nil || acct == 0 {
		return invalid("account", "The account field must be a valid EOS name")
	}
	block, status, out := blockParam(c, first(q["block_num"]))
	if status != 0 {
		return status, out
	}
	abiJSON, setIn, ok := c.ABIAt(acct, block)
	if !ok {
		asked, _ := strconv.ParseUint(first(q["block_num"]), 10, 64) // the block asked for; 0: the head
		return Error(400, "data_abi_not_found_error", "Cannot find an ABI for request account at this block height.",
			map[string]any{"account": acct.String(), "block_num": asked})
	}
	abi := abiJSON
	if j := first(q["json"]); j != "true" && j != "1" {
		src, err := model.Load(abiJSON)
		if err != nil {
			return Error(500, "unexpected_error", err.Error(), nil)
		}
		packed, err := src.ABI.Pack()
		if err != nil {
			return Error(500, "unexpected_error", err.Error(), nil)
		}
		abi = strconv.AppendQuote(nil, hex.EncodeToString(packed))
	}
	return 200, fmt.Appendf(nil, `{"block_num":%d,"account":%q,"abi":%s}`, setIn, acct.String(), abi)
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}
