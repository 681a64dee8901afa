package chain

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/internal/rawabi"
	"github.com/antelopego/abigen/powerup"
)

// Account is get_account's answer, with the permissions and resources
// decoded; Raw holds the whole answer (voter info, REX…).
type Account struct {
	AccountName antelope.Name   `json:"account_name"` // the account
	Privileged  bool            `json:"privileged"`   // a system account
	RAMQuota    JSONInt64       `json:"ram_quota"`    // -1: unlimited
	RAMUsage    JSONInt64       `json:"ram_usage"`    // bytes used
	CPUWeight   JSONInt64       `json:"cpu_weight"`   // staked (and rented) CPU weight; -1: unlimited
	NETWeight   JSONInt64       `json:"net_weight"`   // staked (and rented) NET weight; -1: unlimited
	CPULimit    ResourceLimit   `json:"cpu_limit"`    // CPU, µs, over the chain's 24-hour window
	NETLimit    ResourceLimit   `json:"net_limit"`    // NET, bytes, over the same window
	Permissions []Permission    `json:"permissions"`  // owner, active and custom permissions
	Raw         json.RawMessage `json:"-"`            // the node's whole answer
}

// ResourceLimit is an account's CPU or NET as get_account reports it: what
// its weight allows now over the chain's 24-hour window, what it used, and
// what is left. All three are -1 for an account without limits.
type ResourceLimit struct {
	Used      JSONInt64 `json:"used"`      // used in the window
	Available JSONInt64 `json:"available"` // left: what a transaction billed to the account may use
	Max       JSONInt64 `json:"max"`       // what the account's weight gives
}

// PowerUpSample is the sample powerup.Market.Plan turns wanted µs and
// bytes into fractions with: this account's CPU and NET limit per unit of
// its weight (powerup.SampleAccount), as @wharfkit/resources measures it
// on an account with staked resources (greymassfuel on EOS).
func (a *Account) PowerUpSample() (powerup.Sample, error) {
	return powerup.SampleAccount(int64(a.CPULimit.Max), int64(a.CPUWeight), int64(a.NETLimit.Max), int64(a.NETWeight))
}

// Permission is one of an account's permissions.
type Permission struct {
	PermName     antelope.Name `json:"perm_name"`     // e.g. active
	Parent       antelope.Name `json:"parent"`        // the permission that controls it (none for owner)
	RequiredAuth Authority     `json:"required_auth"` // what satisfies it
}

// Authority is what satisfies a permission: keys, other accounts'
// permissions and waits, each with a weight, against a threshold.
type Authority struct {
	Threshold uint32                  `json:"threshold"` // the weight that satisfies the permission
	Keys      []KeyWeight             `json:"keys"`      // keys and their weights
	Accounts  []PermissionLevelWeight `json:"accounts"`  // other accounts' permissions and their weights
	Waits     []WaitWeight            `json:"waits"`     // delays and their weights
}

// KeyWeight is a key of an authority.
type KeyWeight struct {
	Key    antelope.PublicKey `json:"key"`    // the public key
	Weight uint16             `json:"weight"` // its weight
}

// UnmarshalJSON reads a key weight. Chains that print legacy K1 keys with
// their own prefix (FIO's "FIO…") are read as the same key.
func (k *KeyWeight) UnmarshalJSON(data []byte) error {
	var raw struct {
		Key    string `json:"key"`
		Weight uint16 `json:"weight"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	key, err := antelope.ParsePublicKey(raw.Key)
	if err != nil && len(raw.Key) > 50 && !strings.HasPrefix(raw.Key, "PUB_") {
		// A legacy key is a prefix, then 50 base58 characters with the
		// same checksum whatever the prefix.
		key, err = antelope.ParsePublicKey("EOS" + raw.Key[len(raw.Key)-50:])
	}
	if err != nil {
		return err
	}
	k.Key, k.Weight = key, raw.Weight
	return nil
}

// JSONInt64 is an integer that nodeos prints as a number or, past 2^32, as
// a string.
type JSONInt64 int64

// UnmarshalJSON reads a number or a numeric string.
func (f *JSONInt64) UnmarshalJSON(data []byte) error {
	s := strings.Trim(string(data), `"`)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not an integer: %s", data)
	}
	*f = JSONInt64(v)
	return nil
}

// PermissionLevelWeight is another account's permission in an authority.
type PermissionLevelWeight struct {
	Permission antelope.PermissionLevel `json:"permission"` // the account's permission
	Weight     uint16                   `json:"weight"`     // its weight
}

// WaitWeight is a delay in an authority.
type WaitWeight struct {
	WaitSec uint32 `json:"wait_sec"` // the delay, seconds
	Weight  uint16 `json:"weight"`   // its weight
}

// GetAccount returns an account. An account that does not exist is an
// error matching ErrUnknownAccount.
func (c *Client) GetAccount(ctx context.Context, account antelope.Name) (*Account, error) {
	body, err := c.Call(ctx, "/v1/chain/get_account", map[string]string{"account_name": account.String()})
	if err != nil {
		return nil, err
	}
	return DecodeAccount(body)
}

// DecodeAccount reads get_account's answer. One without the account's name
// or permissions, or with a permission no key, account or wait can
// satisfy, is an error.
func DecodeAccount(body []byte) (*Account, error) {
	var a Account
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("nodeos get_account: unexpected answer: %v", err)
	}
	if a.AccountName == 0 || len(a.Permissions) == 0 {
		return nil, errors.New("nodeos get_account: an answer without the account's name or permissions")
	}
	for _, p := range a.Permissions {
		if p.RequiredAuth.Threshold == 0 {
			return nil, fmt.Errorf("nodeos get_account: permission %s has no threshold", p.PermName)
		}
	}
	a.Raw = body
	return &a, nil
}

// GetCurrencyBalance returns account's balances in the token contract code;
// symbol ("WAX") narrows them to one token, "" returns all.
func (c *Client) GetCurrencyBalance(ctx context.Context, code, account antelope.Name, symbol string) ([]antelope.Asset, error) {
	req := map[string]string{"code": code.String(), "account": account.String()}
	if symbol != "" {
		req["symbol"] = symbol
	}
	body, err := c.Call(ctx, "/v1/chain/get_currency_balance", req)
	if err != nil {
		return nil, err
	}
	return decodeBalances(body)
}

// decodeBalances reads get_currency_balance's answer: a list of assets.
func decodeBalances(body []byte) ([]antelope.Asset, error) {
	var out []antelope.Asset
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("nodeos get_currency_balance: unexpected answer: %v", err)
	}
	if out == nil {
		return nil, errors.New("nodeos get_currency_balance: the answer is not a list")
	}
	return out, nil
}

// GetABI returns the account's ABI as nodeos prints it (JSON), or nil when
// the account has none.
func (c *Client) GetABI(ctx context.Context, account antelope.Name) (json.RawMessage, error) {
	body, err := c.Call(ctx, "/v1/chain/get_abi", map[string]string{"account_name": account.String()})
	if err != nil {
		return nil, err
	}
	return decodeABIAnswer(body)
}

// decodeABIAnswer reads get_abi's answer: the ABI object, or nil when the
// account has none (abi absent or null).
func decodeABIAnswer(body []byte) (json.RawMessage, error) {
	var out struct {
		AccountName antelope.Name   `json:"account_name"`
		ABI         json.RawMessage `json:"abi"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("nodeos get_abi: unexpected answer: %v", err)
	}
	switch {
	case out.AccountName == 0:
		return nil, errors.New("nodeos get_abi: an answer without the account's name")
	case len(out.ABI) == 0 || string(out.ABI) == "null":
		return nil, nil
	case out.ABI[0] != '{':
		return nil, errors.New("nodeos get_abi: abi is not an object")
	}
	return out.ABI, nil
}

// GetRawABI returns the account's ABI as the packed bytes on chain (empty
// when it has none) and their sha256 as the node reports it, which the
// bytes are checked against. An answer about another account is an error.
func (c *Client) GetRawABI(ctx context.Context, account antelope.Name) ([]byte, antelope.Checksum256, error) {
	body, err := c.Call(ctx, "/v1/chain/get_raw_abi", map[string]string{"account_name": account.String()})
	if err != nil {
		return nil, antelope.Checksum256{}, err
	}
	return decodeRawABI(body, account)
}

// decodeRawABI reads get_raw_abi's answer about account: the packed ABI,
// which must hash to the abi_hash the node gives with it.
func decodeRawABI(body []byte, account antelope.Name) ([]byte, antelope.Checksum256, error) {
	var out struct {
		AccountName antelope.Name        `json:"account_name"`
		ABI         string               `json:"abi"`
		ABIHash     antelope.Checksum256 `json:"abi_hash"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, antelope.Checksum256{}, fmt.Errorf("nodeos get_raw_abi: unexpected answer: %v", err)
	}
	if err := sameAccount("get_raw_abi", out.AccountName, account); err != nil {
		return nil, antelope.Checksum256{}, err
	}
	raw, err := rawabi.Decode(out.ABI, hex.EncodeToString(out.ABIHash[:]))
	if err != nil {
		return nil, antelope.Checksum256{}, fmt.Errorf("nodeos get_raw_abi: %v", err)
	}
	return raw, out.ABIHash, nil
}
