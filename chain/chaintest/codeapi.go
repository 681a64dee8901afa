package chaintest

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"

	"github.com/antelopego/abigen/antelope"
)

// get_code_hash, get_raw_code_and_abi and get_code, as nodeos answers them.

func (c *Chain) getCode(endpoint string, body []byte) (int, any) {
	var p struct {
		CodeAsWASM bool `json:"code_as_wasm"`
	}
	_ = json.Unmarshal(body, &p)
	c.mu.Lock()
	defer c.mu.Unlock()
	n, status, refusal := c.accountRequest(body, "code")
	if status != 0 {
		return status, refusal
	}
	ct := c.contract(n)
	var code, packedABI []byte
	var hash antelope.Checksum256
	if ct != nil {
		code, hash = ct.code, ct.codeHash
		packedABI = ct.packed()
	}
	switch endpoint {
	case "get_code_hash":
		return 200, map[string]any{"account_name": n.String(), "code_hash": hash}
	case "get_raw_code_and_abi":
		return 200, map[string]any{"account_name": n.String(), "wasm": base64.StdEncoding.EncodeToString(code),
			"abi": base64.StdEncoding.EncodeToString(packedABI)}
	}
	out := map[string]any{"account_name": n.String(), "code_hash": hash, "wast": "", "wasm": ""}
	if p.CodeAsWASM {
		out["wasm"] = string(code) // nodeos sends the bytes as a JSON string
	}
	if ct != nil && ct.abi != nil {
		out["abi"] = json.RawMessage(ct.abi)
	}
	return 200, out
}

// accountRequest reads the account_name of a get_abi, get_code… request
// and answers as nodeos does when it is not an account: 0 and the name when
// it is. The caller holds c.mu.
func (c *Chain) accountRequest(body []byte, what string) (antelope.Name, int, any) {
	var p struct {
		AccountName string `json:"account_name"`
	}
	if err := json.Unmarshal(body, &p); err != nil || p.AccountName == "" {
		status, out := badRequest("A Request body is required")
		return 0, status, out
	}
	n, err := antelope.ParseName(p.AccountName)
	if err != nil {
		status, out := nodeosError(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", err.Error())
		return 0, status, out
	}
	if c.account(n) == nil {
		status, out := nodeosError(400, "Account lookup", 3060002, "account_query_exception", "Account Query Exception",
			"unable to retrieve account "+what+" (unknown key: "+p.AccountName+")")
		return 0, status, out
	}
	return n, 0, nil
}

// packed is the contract's ABI as the chain stores it (none: nil).
func (ct *contract) packed() []byte {
	if ct.packedABI != nil || ct.abi == nil {
		return ct.packedABI
	}
	packed, _, err := packABI(ct.abi)
	if err != nil {
		return nil
	}
	ct.packedABI = packed
	return packed
}

// defaultParams is nodeos's default chain_config_v0, packed.
var defaultParams = func() []byte {
	b := binary.LittleEndian.AppendUint64(nil, 1024*1024) // max_block_net_usage
	for _, v := range []uint32{
		1000,       // target_block_net_usage_pct (10%)
		512 * 1024, // max_transaction_net_usage
		12,         // base_per_transaction_net_usage
		500,        // net_usage_leeway
		20, 100,    // context_free_discount_net_usage_num, _den
		200_000,        // max_block_cpu_usage
		1000,           // target_block_cpu_usage_pct
		150_000,        // max_transaction_cpu_usage
		100,            // min_transaction_cpu_usage
		3600,           // max_transaction_lifetime
		600,            // deferred_trx_expiration_window
		45 * 24 * 3600, // max_transaction_delay
		512 * 1024,     // max_inline_action_size
	} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	b = binary.LittleEndian.AppendUint16(b, 4)    // max_inline_action_depth
	return binary.LittleEndian.AppendUint16(b, 6) // max_authority_depth
}()

// maxTransactionDelay is the chain's max_transaction_delay in seconds: in
// the packed chain_config, after max_block_net_usage (a uint64) and twelve
// uint32 fields.
func (c *Chain) maxTransactionDelay() uint32 {
	return binary.LittleEndian.Uint32(c.params[8+12*4:])
}

// logConsole writes an action's console output to the WithConsoleLog
// logger.
func (c *Chain) logConsole(tr *actionTrace) {
	if c.opts.console == nil || tr.console.Len() == 0 {
		return
	}
	c.opts.console.Logf("[%s::%s -> %s] %s", tr.act.Account, tr.act.Name, tr.receiver, tr.console.String())
}
