package chain

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/internal/rawabi"
	"github.com/antelopego/abigen/model"
)

// Deploying a contract: eosio's setcode and setabi in one transaction, as
// `cleos set contract` sends them, skipping what the chain already has.

var (
	nameEosio   = antelope.MustName("eosio")
	nameSetcode = antelope.MustName("setcode")
	nameSetabi  = antelope.MustName("setabi")
)

// DeployOption configures Deploy.
type DeployOption func(*deployOptions)

type deployOptions struct {
	force bool
	auth  *antelope.PermissionLevel
}

// ForceDeploy sends the code and the ABI even when the chain already has
// them. nodeos refuses a setcode of the code an account already runs
// (set_exact_code, "contract is already running this version of code").
func ForceDeploy() DeployOption { return func(o *deployOptions) { o.force = true } }

// DeployAuthority sets the permission setcode and setabi carry (default:
// the account's active permission).
func DeployAuthority(level antelope.PermissionLevel) DeployOption {
	return func(o *deployOptions) { o.auth = &level }
}

// DeployResult says what Deploy did.
type DeployResult struct {
	CodeHash antelope.Checksum256 // the sha256 of the code deployed (zero when no code was given)
	CodeSent bool                 // a setcode was sent: the chain had other code
	ABISent  bool                 // a setabi was sent: the chain had another ABI
	// Transaction is the transaction's result; nil when nothing needed
	// sending.
	Transaction *TransactResult
}

// Deploy sets account's contract: its WebAssembly code and its ABI (ABI
// JSON, or the packed ABI), in one transaction of eosio::setcode and
// eosio::setabi signed by signer. The ABI is sent packed, as the chain
// stores it. Like `cleos set contract`, it first asks the chain: the code
// is left out when get_code_hash already equals its sha256, the ABI when
// get_raw_abi already returns it (the same bytes, or bytes nodeos reads as
// the same ABI: cleos packs empty variants and action_results lists that
// other tools leave out), and nothing is sent when both are current
// (ForceDeploy sends them anyway). A nil wasm or abi deploys only the
// other.
func (c *Client) Deploy(ctx context.Context, signer antelope.Signer, account antelope.Name, wasm, abi []byte, opts ...DeployOption) (*DeployResult, error) {
	var o deployOptions
	for _, f := range opts {
		f(&o)
	}
	if wasm == nil && abi == nil {
		return nil, errors.New("deploy: neither code nor ABI given")
	}
	var packedABI []byte
	if abi != nil {
		src, err := model.Load(abi)
		if err != nil {
			return nil, fmt.Errorf("deploy %s: the ABI: %w", account, err)
		}
		if packedABI, err = src.ABI.Pack(); err != nil {
			return nil, fmt.Errorf("deploy %s: packing the ABI: %w", account, err)
		}
	}
	res := &DeployResult{}
	if wasm != nil {
		res.CodeHash = sha256.Sum256(wasm)
		res.CodeSent = true
		if !o.force {
			current, err := c.GetCodeHash(ctx, account)
			if err != nil {
				return nil, fmt.Errorf("deploy %s: %w", account, err)
			}
			res.CodeSent = current != res.CodeHash
		}
	}
	if abi != nil {
		res.ABISent = true
		if !o.force {
			current, _, err := c.GetRawABI(ctx, account)
			if err != nil {
				return nil, fmt.Errorf("deploy %s: %w", account, err)
			}
			res.ABISent = !sameABI(current, packedABI)
		}
	}
	auth := antelope.PermissionLevel{Actor: account, Permission: antelope.MustName("active")}
	if o.auth != nil {
		auth = *o.auth
	}
	var actions []antelope.Action
	if res.CodeSent {
		actions = append(actions, SetcodeAction(account, wasm, auth))
	}
	if res.ABISent {
		actions = append(actions, SetabiAction(account, packedABI, auth))
	}
	if len(actions) == 0 {
		return res, nil
	}
	tr, err := c.Transact(ctx, signer, actions...)
	if err != nil {
		return nil, fmt.Errorf("deploy %s: %w", account, err)
	}
	res.Transaction = tr
	return res, nil
}

// sameABI reports whether onChain, the packed ABI an account has, is
// packed, the canonical packing of the ABI to deploy: the same bytes, or
// bytes that differ only where nodeos reads no difference — the empty
// variants and action_results lists at the end, which cleos always writes
// (fc packs abi_def's may_not_exist fields) and other tools may leave out.
func sameABI(onChain, packed []byte) bool {
	if bytes.Equal(onChain, packed) {
		return true
	}
	abi, err := model.ParsePacked(onChain)
	if err != nil {
		return false
	}
	canonical, err := abi.Pack()
	return err == nil && bytes.Equal(canonical, packed)
}

// SetcodeAction is eosio::setcode{account, vmtype 0, vmversion 0, code}
// authorized by auth.
func SetcodeAction(account antelope.Name, wasm []byte, auth antelope.PermissionLevel) antelope.Action {
	data := antelope.AppendUint64(nil, uint64(account))
	data = append(data, 0, 0)                  // vmtype, vmversion
	data, _ = antelope.AppendBytes(data, wasm) // fails only past 4 GiB
	return antelope.Action{Account: nameEosio, Name: nameSetcode, Authorization: []antelope.PermissionLevel{auth}, Data: data}
}

// SetabiAction is eosio::setabi{account, abi} with the packed ABI,
// authorized by auth.
func SetabiAction(account antelope.Name, packedABI []byte, auth antelope.PermissionLevel) antelope.Action {
	data, _ := antelope.AppendBytes(antelope.AppendUint64(nil, uint64(account)), packedABI)
	return antelope.Action{Account: nameEosio, Name: nameSetabi, Authorization: []antelope.PermissionLevel{auth}, Data: data}
}

// GetCodeHash is the sha256 of account's code (get_code_hash); zero when
// the account has none. An answer about another account (a cache, a proxy
// mixing answers up) is an error: Deploy would otherwise skip the code.
func (c *Client) GetCodeHash(ctx context.Context, account antelope.Name) (antelope.Checksum256, error) {
	var out struct {
		AccountName antelope.Name        `json:"account_name"`
		CodeHash    antelope.Checksum256 `json:"code_hash"`
	}
	if err := c.callJSON(ctx, "/v1/chain/get_code_hash", map[string]string{"account_name": account.String()}, &out); err != nil {
		return antelope.Checksum256{}, err
	}
	if err := sameAccount("get_code_hash", out.AccountName, account); err != nil {
		return antelope.Checksum256{}, err
	}
	return out.CodeHash, nil
}

// sameAccount checks that an answer of endpoint about an account names the
// account asked about.
func sameAccount(endpoint string, got, asked antelope.Name) error {
	if got != asked {
		return fmt.Errorf("nodeos %s: asked about %s, the answer is about %q", endpoint, asked, got.String())
	}
	return nil
}

// GetRawCodeAndABI returns account's WebAssembly code and its packed ABI
// (get_raw_code_and_abi): what Deploy takes, to copy a contract from one
// chain to another (or into chaintest). Both are empty when the account has
// no contract.
func (c *Client) GetRawCodeAndABI(ctx context.Context, account antelope.Name) (wasm, abi []byte, err error) {
	var out struct {
		AccountName antelope.Name `json:"account_name"`
		WASM        string        `json:"wasm"`
		ABI         string        `json:"abi"`
	}
	if err := c.callJSON(ctx, "/v1/chain/get_raw_code_and_abi", map[string]string{"account_name": account.String()}, &out); err != nil {
		return nil, nil, err
	}
	if err := sameAccount("get_raw_code_and_abi", out.AccountName, account); err != nil {
		return nil, nil, err
	}
	// Older nodes pad the base64 wrongly (see rawabi).
	if wasm, err = rawabi.Base64(out.WASM); err != nil {
		return nil, nil, fmt.Errorf("nodeos get_raw_code_and_abi: wasm is not base64: %v", err)
	}
	if abi, err = rawabi.Base64(out.ABI); err != nil {
		return nil, nil, fmt.Errorf("nodeos get_raw_code_and_abi: abi is not base64: %v", err)
	}
	return wasm, abi, nil
}
