package nodeosapi

import (
	"encoding/base64"
	"encoding/json"

	"github.com/antelopego/abigen/antelope"
)

// get_code_hash, get_raw_code_and_abi and get_code, as nodeos answers them.

// GetCode answers get_code_hash, get_raw_code_and_abi and get_code
// (endpoint).
func GetCode(c Chain, endpoint string, body []byte) (int, any) {
	var p struct {
		CodeAsWASM bool `json:"code_as_wasm"`
	}
	_ = json.Unmarshal(body, &p)
	c.Lock()
	defer c.Unlock()
	n, status, refusal := accountRequest(c, body, "code")
	if status != 0 {
		return status, refusal
	}
	ct, hasContract := c.Contract(n)
	switch endpoint {
	case "get_code_hash":
		return 200, map[string]any{"account_name": n.String(), "code_hash": ct.CodeHash}
	case "get_raw_code_and_abi":
		return 200, map[string]any{"account_name": n.String(), "wasm": base64.StdEncoding.EncodeToString(ct.Code),
			"abi": base64.StdEncoding.EncodeToString(ct.PackedABI)}
	}
	out := map[string]any{"account_name": n.String(), "code_hash": ct.CodeHash, "wast": "", "wasm": ""}
	if p.CodeAsWASM {
		out["wasm"] = string(ct.Code) // nodeos sends the bytes as a JSON string
	}
	if hasContract && ct.ABI != nil {
		out["abi"] = ct.ABI
	}
	return 200, out
}

// accountRequest reads the account_name of a get_abi, get_code… request
// and answers as nodeos does when it is not an account: 0 and the name when
// it is. The caller holds the lock.
func accountRequest(c Chain, body []byte, what string) (antelope.Name, int, any) {
	var p struct {
		AccountName string `json:"account_name"`
	}
	if err := json.Unmarshal(body, &p); err != nil || p.AccountName == "" {
		status, out := BadRequest("A Request body is required")
		return 0, status, out
	}
	n, err := antelope.ParseName(p.AccountName)
	if err != nil {
		status, out := Error(500, "Internal Service Error", 3010001, "name_type_exception", "Invalid name", err.Error())
		return 0, status, out
	}
	if !c.AccountExists(n) {
		status, out := Error(400, "Account lookup", 3060002, "account_query_exception", "Account Query Exception",
			"unable to retrieve account "+what+" (unknown key: "+p.AccountName+")")
		return 0, status, out
	}
	return n, 0, nil
}
