package nodeosapi

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// The read-only chain API: get_info, blocks, ABIs, balances.

// GetInfo answers get_info. Its bytes are written by hand, in the order
// encoding/json gives a map (keys sorted), because Client.Transact asks
// for them before every transaction and encoding/json's map encoder was a
// twentieth of a one-transfer transaction in process.
func GetInfo(c Chain) (int, any) {
	c.Lock()
	head := c.Head()
	// Instant finality: the head is irreversible, as on a Savanna chain a
	// moment later — unless the chain was made WithManualFinality.
	lib := c.Irreversible()
	chainID, first := c.ChainID(), c.FirstBlock()
	c.Unlock()
	return 200, appendInfo(make([]byte, 0, 1024), chainID, head, lib, first)
}

// appendInfo appends get_info's answer for a chain at head with lib its
// last irreversible block and first its first block.
func appendInfo(b []byte, chainID antelope.Checksum256, head, lib Block, first uint32) []byte {
	id := func(b []byte, key string, id antelope.Checksum256) []byte {
		b = append(append(append(b, '"'), key...), `":"`...)
		return append(hex.AppendEncode(b, id[:]), `",`...)
	}
	num := func(b []byte, key string, n uint64) []byte {
		b = append(append(append(b, '"'), key...), `":`...)
		return append(strconv.AppendUint(b, n, 10), ',')
	}
	text := func(b []byte, key, s string) []byte {
		return append(append(append(append(append(b, '"'), key...), `":"`...), s...), `",`...)
	}
	b = append(b, '{')
	b = num(b, "block_cpu_limit", 200000)
	b = num(b, "block_net_limit", 1048576)
	b = id(b, "chain_id", chainID)
	b = num(b, "earliest_available_block_num", uint64(first))
	b = id(b, "fork_db_head_block_id", head.ID)
	b = num(b, "fork_db_head_block_num", uint64(head.Num))
	b = id(b, "head_block_id", head.ID)
	b = num(b, "head_block_num", uint64(head.Num))
	b = text(b, "head_block_producer", "eosio")
	b = text(b, "head_block_time", timeText(head.Time))
	b = id(b, "last_irreversible_block_id", lib.ID)
	b = num(b, "last_irreversible_block_num", uint64(lib.Num))
	b = text(b, "last_irreversible_block_time", timeText(lib.Time))
	b = text(b, "server_full_version_string", "chaintest")
	b = text(b, "server_version", "chaintest")
	b = text(b, "server_version_string", "chaintest")
	b = num(b, "virtual_block_cpu_limit", 200000)
	b = num(b, "virtual_block_net_limit", 1048576000)
	b[len(b)-1] = '}'
	return b
}

// GetBlock answers get_block and get_block_info (endpoint).
func GetBlock(c Chain, endpoint string, body []byte) (int, any) {
	var p struct {
		BlockNum     json.RawMessage `json:"block_num"`
		BlockNumOrID json.RawMessage `json:"block_num_or_id"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return BadRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	ref := p.BlockNum
	if endpoint == "get_block" {
		ref = p.BlockNumOrID
	}
	text := strings.Trim(string(ref), `"`)
	c.Lock()
	defer c.Unlock()
	var b Block
	var found bool
	if n, err := strconv.ParseUint(text, 10, 32); err == nil {
		b, found = c.Block(uint32(n))
	} else if id, err := antelope.ParseChecksum256(text); err == nil {
		b, found = c.BlockByID(id)
	} else {
		return Error(500, "Internal Service Error", 3010008, "block_id_type_exception", "Invalid block ID", "Invalid block ID: "+text)
	}
	if !found {
		return Error(400, "Unknown Block", 3100002, "unknown_block_exception", "Unknown block", "Could not find block: "+text)
	}
	num, prefix := antelope.TaposFromBlockID(b.ID)
	out := map[string]any{
		"id": b.ID, "block_num": b.Num, "ref_block_num": num, "ref_block_prefix": prefix,
		"timestamp": timeText(b.Time), "producer": "eosio", "confirmed": 0, "previous": b.Previous,
		"transaction_mroot": antelope.Checksum256{}, "action_mroot": antelope.Checksum256{}, "schedule_version": 0,
		"producer_signature": "SIG_K1_111111111111111111111111111111111111111111111111111111111111111116uk5ne",
	}
	if endpoint == "get_block" {
		out["transactions"] = c.BlockTransactions(b.Num)
	}
	return 200, out
}

// GetABI answers get_abi and get_raw_abi (endpoint).
func GetABI(c Chain, endpoint string, body []byte) (int, any) {
	c.Lock()
	defer c.Unlock()
	n, status, out := accountRequest(c, body, "abi")
	if status != 0 {
		return status, out
	}
	ct, hasContract := c.Contract(n)
	if endpoint == "get_abi" {
		out := map[string]any{"account_name": n.String()}
		if hasContract && ct.ABI != nil {
			out["abi"] = ct.ABI
		}
		return 200, out
	}
	h := sha256.Sum256(ct.PackedABI)
	return 200, map[string]any{"account_name": n.String(), "code_hash": ct.CodeHash,
		"abi_hash": hex.EncodeToString(h[:]), "abi": base64.StdEncoding.EncodeToString(ct.PackedABI)}
}

// GetCurrencyBalance reads the token contract's "accounts" table in the
// account's scope, whose rows start with the balance, as eosio.token's do.
func GetCurrencyBalance(c Chain, body []byte) (int, any) {
	var p struct {
		Code    string `json:"code"`
		Account string `json:"account"`
		Symbol  string `json:"symbol"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return BadRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	code, err1 := antelope.ParseName(p.Code)
	acct, err2 := antelope.ParseName(p.Account)
	if err1 != nil || err2 != nil {
		return Error(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", "invalid name")
	}
	c.Lock()
	defer c.Unlock()
	if !c.AccountExists(code) {
		return Error(400, "Account lookup", 3060002, "account_query_exception", "Account Query Exception", "Fail to retrieve account for "+p.Code)
	}
	out := []antelope.Asset{}
	for _, r := range c.State().Sorted(store.TableID{Code: code, Scope: acct, Table: antelope.MustName("accounts")}, 1) {
		var a antelope.Asset
		d := antelope.NewDecoder(r.Data)
		if a.DecodeBinary(d) != nil {
			continue
		}
		if p.Symbol != "" && a.Symbol.Code.String() != strings.ToUpper(p.Symbol) {
			continue
		}
		out = append(out, a)
	}
	return 200, out
}
