package chaintest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// The read-only chain API: get_info, blocks, ABIs, balances.

func (c *Chain) getInfo() (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	head := c.blocks[len(c.blocks)-1]
	// Instant finality: the head is irreversible, as on a Savanna chain a
	// moment later — unless the chain was made WithManualFinality.
	lib := c.block(c.lastIrreversible())
	return 200, map[string]any{
		"server_version": "chaintest", "chain_id": c.chainID,
		"head_block_num": head.Num, "head_block_id": head.ID, "head_block_time": timeText(head.Time), "head_block_producer": "eosio",
		"last_irreversible_block_num": lib.Num, "last_irreversible_block_id": lib.ID,
		"last_irreversible_block_time": timeText(lib.Time),
		"virtual_block_cpu_limit":      200000, "virtual_block_net_limit": 1048576000, "block_cpu_limit": 200000, "block_net_limit": 1048576,
		"server_version_string": "chaintest", "fork_db_head_block_num": head.Num, "fork_db_head_block_id": head.ID,
		"server_full_version_string": "chaintest", "earliest_available_block_num": c.opts.firstBlock,
	}
}

func (c *Chain) getBlock(endpoint string, body []byte) (int, any) {
	var p struct {
		BlockNum     json.RawMessage `json:"block_num"`
		BlockNumOrID json.RawMessage `json:"block_num_or_id"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return badRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	ref := p.BlockNum
	if endpoint == "get_block" {
		ref = p.BlockNumOrID
	}
	text := strings.Trim(string(ref), `"`)
	c.mu.Lock()
	defer c.mu.Unlock()
	var b *Block
	if n, err := strconv.ParseUint(text, 10, 32); err == nil {
		b = c.block(uint32(n))
	} else if id, err := antelope.ParseChecksum256(text); err == nil {
		for i := range c.blocks {
			if c.blocks[i].ID == id {
				b = &c.blocks[i]
			}
		}
	} else {
		return nodeosError(500, "Internal Service Error", 3010008, "block_id_type_exception", "Invalid block ID", "Invalid block ID: "+text)
	}
	if b == nil {
		return nodeosError(400, "Unknown Block", 3100002, "unknown_block_exception", "Unknown block", "Could not find block: "+text)
	}
	num, prefix := antelope.TaposFromBlockID(b.ID)
	out := map[string]any{
		"id": b.ID, "block_num": b.Num, "ref_block_num": num, "ref_block_prefix": prefix,
		"timestamp": timeText(b.Time), "producer": "eosio", "confirmed": 0, "previous": b.Previous,
		"transaction_mroot": antelope.Checksum256{}, "action_mroot": antelope.Checksum256{}, "schedule_version": 0,
		"producer_signature": "SIG_K1_111111111111111111111111111111111111111111111111111111111111111116uk5ne",
	}
	if endpoint == "get_block" {
		txs := []any{}
		for _, tx := range c.blocklog.records[c.index(b.Num)].txs {
			cpu, net, _ := tx.trx.usage()
			txs = append(txs, map[string]any{"status": "executed", "cpu_usage_us": cpu, "net_usage_words": net, "trx": receiptTrx(tx)})
		}
		out["transactions"] = txs
	}
	return 200, out
}

func (c *Chain) getABI(endpoint string, body []byte) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, status, out := c.accountRequest(body, "abi")
	if status != 0 {
		return status, out
	}
	ct := c.contract(n)
	if endpoint == "get_abi" {
		out := map[string]any{"account_name": n.String()}
		if ct != nil && ct.abi != nil {
			out["abi"] = json.RawMessage(ct.abi)
		}
		return 200, out
	}
	var packed []byte
	var codeHash antelope.Checksum256
	if ct != nil {
		packed, codeHash = ct.packed(), ct.codeHash
	}
	h := sha256.Sum256(packed)
	return 200, map[string]any{"account_name": n.String(), "code_hash": codeHash,
		"abi_hash": hex.EncodeToString(h[:]), "abi": base64.StdEncoding.EncodeToString(packed)}
}

// getCurrencyBalance reads the token contract's "accounts" table in the
// account's scope, whose rows start with the balance, as eosio.token's do.
func (c *Chain) getCurrencyBalance(body []byte) (int, any) {
	var p struct {
		Code    string `json:"code"`
		Account string `json:"account"`
		Symbol  string `json:"symbol"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return badRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	code, err1 := antelope.ParseName(p.Code)
	acct, err2 := antelope.ParseName(p.Account)
	if err1 != nil || err2 != nil {
		return nodeosError(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", "invalid name")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.account(code) == nil {
		return nodeosError(400, "Account lookup", 3060002, "account_query_exception", "Account Query Exception", "Fail to retrieve account for "+p.Code)
	}
	out := []antelope.Asset{}
	for _, r := range c.db.Sorted(tableID{Code: code, Scope: acct, Table: antelope.MustName("accounts")}, 1) {
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

// receiptTrx is a block receipt's trx as nodeos's get_block prints an input
// transaction: the packed transaction with its id, and the transaction
// itself (action data as hex: nodeos decodes it with the contract's ABI
// where it can, adding hex_data).
func receiptTrx(tx *committedTx) map[string]any {
	p := &tx.packed
	out := map[string]any{
		"id": tx.trx.id, "signatures": p.Signatures, "compression": p.Compression.String(),
		"packed_context_free_data": antelope.Bytes(p.PackedContextFreeData), "context_free_data": []any{},
		"packed_trx": antelope.Bytes(p.PackedTrx),
	}
	if st, err := p.Unpack(); err == nil {
		out["transaction"] = &st.Transaction
		cfd := make([]antelope.Bytes, len(st.ContextFreeData))
		for i, d := range st.ContextFreeData {
			cfd[i] = d
		}
		out["context_free_data"] = cfd
	}
	return out
}
