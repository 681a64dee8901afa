package nodeosapi

import (
	"encoding/json"
	"sort"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
)

// get_account and get_required_keys.

// GetRequiredKeys answers which of the available keys satisfy the
// transaction's authorizations (the chain's authority check decides).
func GetRequiredKeys(c Chain, body []byte) (int, any) {
	var p struct {
		Transaction   antelope.Transaction `json:"transaction"`
		AvailableKeys []antelope.PublicKey `json:"available_keys"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return BadRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	c.Lock()
	defer c.Unlock()
	out, status, refusal := c.RequiredKeys(&p.Transaction, p.AvailableKeys)
	if status != 0 {
		return status, refusal
	}
	return 200, map[string]any{"required_keys": out}
}

// GetAccount answers get_account.
func GetAccount(c Chain, body []byte) (int, any) {
	var p struct {
		AccountName string `json:"account_name"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return BadRequest("Unable to parse valid input from POST body: " + err.Error())
	}
	n, _ := antelope.ParseName(p.AccountName)
	c.Lock()
	defer c.Unlock()
	a, ok := c.Account(n)
	if !ok {
		return Error(400, "Account lookup", 3060002, "account_query_exception", "Account Query Exception",
			"unable to retrieve account info (unknown key (boost::tuples::tuple<bool, eosio::chain::name, boost::tuples::null_type>): (0 "+p.AccountName+"))")
	}
	type perm struct {
		PermName      string          `json:"perm_name"`
		Parent        string          `json:"parent"`
		RequiredAuth  chain.Authority `json:"required_auth"`
		LinkedActions []LinkedAction  `json:"linked_actions"`
	}
	var perms []perm
	for _, p := range a.Permissions {
		parent := ""
		if p.Parent != 0 {
			parent = p.Parent.String()
		}
		auth := p.Auth
		if auth.Keys == nil {
			auth.Keys = []chain.KeyWeight{}
		}
		if auth.Accounts == nil {
			auth.Accounts = []chain.PermissionLevelWeight{}
		}
		if auth.Waits == nil {
			auth.Waits = []chain.WaitWeight{}
		}
		perms = append(perms, perm{p.Name.String(), parent, auth, p.LinkedActions})
	}
	sort.Slice(perms, func(i, j int) bool { return perms[i].PermName < perms[j].PermName })
	head := c.Head()
	return 200, map[string]any{
		"account_name": a.Name.String(), "head_block_num": head.Num, "head_block_time": timeText(head.Time),
		"privileged": a.Privileged, "ram_quota": a.RAMQuota, "ram_usage": a.RAMUsage,
		"net_weight": weightJSON(a.NetWeight, a.NetLimit), "cpu_weight": weightJSON(a.CPUWeight, a.CPULimit),
		"net_limit": limitJSON(a.NetLimit, a.NetUsed), "cpu_limit": limitJSON(a.CPULimit, a.CPUUsed), "permissions": perms,
		"created": timeText(a.Created), "last_code_update": timeText(a.LastCodeUpdate),
		"eosio_any_linked_actions": a.EosioAnyLinked,
	}
}

// limitJSON is get_account's cpu_limit or net_limit: all -1 for an
// unlimited account, as nodeos prints an account without a weight.
func limitJSON(limit, used int64) map[string]any {
	if limit < 0 {
		return map[string]any{"used": -1, "available": -1, "max": -1}
	}
	return map[string]any{"used": used, "available": max(limit-used, 0), "max": limit}
}

// weightJSON is get_account's cpu_weight or net_weight: the weight
// eosio.system set (set_resource_limits), or else one unit per µs (byte)
// of a SetResources allowance.
func weightJSON(weight, limit int64) int64 {
	if weight < 0 && limit >= 0 {
		return limit
	}
	return weight
}
