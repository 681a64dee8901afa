package chaintest

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// The state service: its token service (/v1/auth/issue, at AuthURL) and
// the /v0/state endpoints that serve ABIs and tables as they were at any
// block. Errors have the service's documented shape {code, trace_id,
// message, details}.

type abiVersion struct {
	block uint32
	json  []byte
}

// stateError is an error answer of the state service or its token service;
// details may be nil.
func stateError(status int, code, msg string, details map[string]any) (int, any) {
	body := map[string]any{"code": code, "trace_id": "chaintest", "message": msg}
	if details != nil {
		body["details"] = details
	}
	return status, body
}

// invalid is the state service's request_validation_error for one field.
func invalid(field, msg string) (int, any) {
	return stateError(400, "request_validation_error", "The request is invalid.",
		map[string]any{"errors": map[string][]string{field: {msg}}})
}

func (c *Chain) issueToken(body []byte) (int, any) {
	var p struct {
		APIKey string `json:"api_key"`
	}
	if err := json.Unmarshal(body, &p); err != nil || p.APIKey == "" {
		return invalid("api_key", "The api_key field is required")
	}
	if p.APIKey != c.opts.apiKey {
		return stateError(401, "auth_invalid_api_key_error", "The API key is not valid.", nil)
	}
	now := c.opts.tokenClock()
	exp := now.Add(c.opts.tokenLife).Unix()
	tok := signJWT(c.secret, now.Unix(), exp)
	c.mu.Lock()
	c.tokens[tok] = exp
	c.stats.TokensIssued++
	c.mu.Unlock()
	return 200, map[string]any{"token": tok, "expires_at": exp}
}

// RevokeTokens makes every issued state-service token invalid, as a
// revocation does: the next request gets a 401.
func (c *Chain) RevokeTokens() {
	c.mu.Lock()
	clear(c.tokens)
	c.mu.Unlock()
}

// RejectNextTokens makes the state service refuse the next n requests'
// tokens, valid as they are, with a 401, as the real service does for a
// token revoked behind the client's back.
func (c *Chain) RejectNextTokens(n int) {
	c.mu.Lock()
	c.reject = n
	c.mu.Unlock()
}

// tokenRefused is the state service's 401, with why.
func tokenRefused(reason string) (int, any) {
	return stateError(401, "auth_invalid_token_error", "Unable to correctly decode provided token.",
		map[string]any{"token": "", "reason": reason})
}

// checkToken checks the request's bearer token: signed by this chain's
// token service, not expired by the token clock, not revoked.
func (c *Chain) checkToken(r *http.Request) (int, any) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return tokenRefused("required authorization token not found")
	}
	if why := checkJWT(c.secret, tok, c.opts.tokenClock()); why != "" {
		return tokenRefused("invalid token provided: " + why)
	}
	if _, issued := c.tokens[tok]; !issued {
		return tokenRefused("invalid token provided: revoked")
	}
	if c.reject > 0 {
		c.reject--
		return tokenRefused("invalid token provided: revoked")
	}
	return 0, nil
}

func (c *Chain) stateAPI(r *http.Request, endpoint string) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if status, out := c.checkToken(r); status != 0 {
		return status, out
	}
	q := r.URL.Query()
	if endpoint == "abi" {
		return c.stateABI(q)
	}
	state, block, status, out := c.stateAt(q.Get("block_num"))
	if status != 0 {
		return status, out
	}
	switch endpoint {
	case "table", "table/row":
		code, scope, table, field, bad := tableArgs(q)
		if bad != "" {
			return invalid(field, bad)
		}
		rows := state.Sorted(tableID{Code: code, Scope: scope, Table: table}, 1)
		resp := c.stateHeader(block)
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
		resp := c.stateHeader(block)
		tables := []any{}
		for _, s := range strings.Split(q.Get("scopes"), "|") {
			scope, err := antelope.ParseName(s)
			if err != nil {
				return invalid("scopes", "The scopes field must be valid EOS names separated by |: "+err.Error())
			}
			list := []any{}
			for _, row := range state.Sorted(tableID{Code: code, Scope: scope, Table: table}, 1) {
				list = append(list, stateRow(row, q))
			}
			tables = append(tables, map[string]any{"account": code.String(), "scope": scope.String(), "rows": list})
		}
		resp["tables"] = tables
		return 200, resp
	}
	return stateError(404, "route_not_found_error", "Route not found.", nil)
}

// blockParam reads block_num: 0 or absent is the head.
func (c *Chain) blockParam(param string) (uint32, int, any) {
	head := c.nextBlockNum() - 1
	if param == "" || param == "0" {
		return head, 0, nil
	}
	n, err := strconv.ParseUint(param, 10, 32)
	if err != nil {
		status, out := invalid("block_num", "The block_num field must be an integer")
		return 0, status, out
	}
	if uint32(n) > head {
		status, out := stateError(400, "app_block_num_higher_than_head_block_error", "The requested block num is higher than the current head block num.",
			map[string]any{"request_block_num": n, "head_block_num": head, "last_written_block_num": head})
		return 0, status, out
	}
	return uint32(n), 0, nil
}

// stateAt is the state as of block_num (the end of that block; 0 or
// absent: the head).
func (c *Chain) stateAt(param string) (*db, uint32, int, any) {
	n, status, out := c.blockParam(param)
	if status != 0 {
		return nil, 0, status, out
	}
	if n < c.opts.firstBlock {
		status, out := invalid("block_num", "The block_num field is before the chain's first block "+strconv.FormatUint(uint64(c.opts.firstBlock), 10)+" (chaintest)")
		return nil, 0, status, out
	}
	return c.history[c.index(n)], n, 0, nil
}

func (c *Chain) stateHeader(block uint32) map[string]any {
	lib := c.block(c.lastIrreversible())
	return map[string]any{"up_to_block_id": c.block(block).ID, "up_to_block_num": block,
		"last_irreversible_block_id": lib.ID, "last_irreversible_block_num": lib.Num}
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
func stateRow(r *row, q map[string][]string) map[string]any {
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
func (c *Chain) stateABI(q map[string][]string) (int, any) {
	acct, err := antelope.ParseName(first(q["account"]))
	if err != nil || acct == 0 {
		return invalid("account", "The account field must be a valid EOS name")
	}
	block, status, out := c.blockParam(first(q["block_num"]))
	if status != 0 {
		return status, out
	}
	var v *abiVersion
	for i := range c.abis[acct] {
		if c.abis[acct][i].block <= block {
			v = &c.abis[acct][i]
		}
	}
	if v == nil {
		asked, _ := strconv.ParseUint(first(q["block_num"]), 10, 64) // the block asked for; 0: the head
		return stateError(400, "data_abi_not_found_error", "Cannot find an ABI for request account at this block height.",
			map[string]any{"account": acct.String(), "block_num": asked})
	}
	abi := v.json
	if j := first(q["json"]); j != "true" && j != "1" {
		src, err := model.Load(v.json)
		if err != nil {
			return stateError(500, "unexpected_error", err.Error(), nil)
		}
		packed, err := src.ABI.Pack()
		if err != nil {
			return stateError(500, "unexpected_error", err.Error(), nil)
		}
		abi = strconv.AppendQuote(nil, hex.EncodeToString(packed))
	}
	return 200, fmt.Appendf(nil, `{"block_num":%d,"account":%q,"abi":%s}`, v.block, acct.String(), abi)
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}
