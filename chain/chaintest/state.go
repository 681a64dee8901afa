package chaintest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// The state service: its token service (/v1/auth/issue) and the /v0/state
// endpoints that serve ABIs and tables as they were at any block.

type abiVersion struct {
	block uint32
	json  []byte
}

func stateError(status int, code, msg string) (int, any) {
	return status, map[string]any{"code": code, "trace_id": "chaintest", "message": msg}
}

func (c *Chain) issueToken(body []byte) (int, any) {
	var p struct {
		APIKey string `json:"api_key"`
	}
	if err := json.Unmarshal(body, &p); err != nil || p.APIKey == "" {
		return stateError(400, "request_validation_error", "The request is invalid.")
	}
	if p.APIKey != c.opts.apiKey {
		return stateError(401, "auth_invalid_api_key_error", "The API key is not valid.")
	}
	var b [24]byte
	_, _ = rand.Read(b[:])
	tok := "ey" + hex.EncodeToString(b[:])
	exp := time.Now().Add(c.opts.tokenLife).Unix()
	c.mu.Lock()
	c.tokens[tok] = exp
	c.mu.Unlock()
	return 200, map[string]any{"token": tok, "expires_at": exp}
}

// RevokeTokens makes every issued state-service token invalid, as an
// expiry or a revocation does: the next request gets a 401.
func (c *Chain) RevokeTokens() {
	c.mu.Lock()
	clear(c.tokens)
	c.mu.Unlock()
}

func (c *Chain) stateAPI(r *http.Request, endpoint string) (int, any) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	c.mu.Lock()
	defer c.mu.Unlock()
	if exp, valid := c.tokens[tok]; !ok || !valid || exp < time.Now().Unix() {
		return 401, map[string]any{"code": "auth_invalid_token_error", "trace_id": "chaintest",
			"message": "Unable to correctly decode provided token.", "details": map[string]string{"token": "", "reason": "invalid token provided"}}
	}
	q := r.URL.Query()
	state, block, status, out := c.stateAt(q.Get("block_num"))
	if status != 0 {
		return status, out
	}
	switch endpoint {
	case "abi":
		return c.stateABI(q, block)
	case "table", "table/row":
		code, scope, table, bad := tableArgs(q)
		if bad != "" {
			return stateError(400, "request_validation_error", bad)
		}
		rows := state.sorted(tableID{code, scope, table}, 1)
		resp := c.stateHeader(block)
		if endpoint == "table/row" {
			pk, err := strconv.ParseUint(q.Get("primary_key"), 10, 64)
			if err != nil {
				if n, err2 := antelope.ParseName(q.Get("primary_key")); err2 == nil {
					pk = uint64(n)
				} else {
					return stateError(400, "request_validation_error", "primary_key is not a uint64 or a name")
				}
			}
			resp["row"] = nil
			for _, row := range rows {
				if row.pk == pk {
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
		for _, id := range state.scopes(code) {
			if id.table == table {
				scopes = append(scopes, id.scope.String())
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
				return stateError(400, "request_validation_error", "scopes: "+err.Error())
			}
			list := []any{}
			for _, row := range state.sorted(tableID{code, scope, table}, 1) {
				list = append(list, stateRow(row, q))
			}
			tables = append(tables, map[string]any{"account": code.String(), "scope": scope.String(), "rows": list})
		}
		resp["tables"] = tables
		return 200, resp
	}
	return stateError(404, "route_not_found_error", "Route not found.")
}

// stateAt is the state as of block_num (the end of that block; 0 or
// absent: the head).
func (c *Chain) stateAt(param string) (*db, uint32, int, any) {
	head := uint32(len(c.blocks))
	if param == "" || param == "0" {
		return c.db, head, 0, nil
	}
	n, err := strconv.ParseUint(param, 10, 32)
	if err != nil {
		status, out := stateError(400, "request_validation_error", "block_num must be an integer")
		return nil, 0, status, out
	}
	if uint32(n) > head {
		status, out := stateError(400, "app_block_num_higher_than_head_block_error", "The requested block num is higher than the current head block num.")
		return nil, 0, status, out
	}
	return c.history[n-1], uint32(n), 0, nil
}

func (c *Chain) stateHeader(block uint32) map[string]any {
	lib := c.blocks[c.lastIrreversible()-1]
	return map[string]any{"up_to_block_id": c.blocks[block-1].ID, "up_to_block_num": block,
		"last_irreversible_block_id": lib.ID, "last_irreversible_block_num": lib.Num}
}

func tableArgs(q map[string][]string) (code, scope, table antelope.Name, bad string) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	var err error
	if code, err = antelope.ParseName(get("account")); err != nil || code == 0 {
		return 0, 0, 0, "The account field must be a valid EOS name"
	}
	if scope, err = antelope.ParseName(get("scope")); err != nil {
		return 0, 0, 0, "The scope field must be a valid EOS name"
	}
	if table, err = antelope.ParseName(get("table")); err != nil || table == 0 {
		return 0, 0, 0, "The table field must be a valid EOS name"
	}
	return code, scope, table, ""
}

// stateRow prints a row as the state service does: its key in key_type's
// form (name by default, uint64, hex), payer, and the hex row.
func stateRow(r *row, q map[string][]string) map[string]any {
	key := antelope.Name(r.pk).String()
	if kt := q["key_type"]; len(kt) > 0 {
		switch kt[0] {
		case "uint64":
			key = strconv.FormatUint(r.pk, 10)
		case "hex", "hex_be":
			key = strconv.FormatUint(r.pk, 16)
		}
	}
	return map[string]any{"key": key, "payer": r.payer.String(), "hex": hex.EncodeToString(r.data)}
}

// stateABI answers the ABI at a block: the version set last at or before
// it, with the block it was set in.
func (c *Chain) stateABI(q map[string][]string, block uint32) (int, any) {
	acct, err := antelope.ParseName(first(q["account"]))
	if err != nil || acct == 0 {
		return stateError(400, "request_validation_error", "The account field must be a valid EOS name")
	}
	var v *abiVersion
	for i := range c.abis[acct] {
		if c.abis[acct][i].block <= block {
			v = &c.abis[acct][i]
		}
	}
	if v == nil {
		return 400, map[string]any{"code": "data_abi_not_found_error", "trace_id": "chaintest",
			"message": "Cannot find an ABI for request account at this block height.", "details": map[string]any{"account": acct.String(), "block_num": block}}
	}
	out := map[string]any{"block_num": v.block, "account": acct.String()}
	if first(q["json"]) == "false" {
		src, err := model.Load(v.json)
		if err != nil {
			return stateError(500, "unexpected_error", err.Error())
		}
		packed, err := src.ABI.Pack()
		if err != nil {
			return stateError(500, "unexpected_error", err.Error())
		}
		out["abi"] = hex.EncodeToString(packed)
	} else {
		out["abi"] = json.RawMessage(v.json)
	}
	return 200, out
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}
