package chaintest

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
)

// The state a test sets outside any transaction, through execution
// (internal/exec's fixtures.go).

// CreateAccount creates an account whose owner and active permissions are
// each satisfied by key alone (threshold 1, weight 1).
func (c *Chain) CreateAccount(name antelope.Name, key antelope.PublicKey) {
	auth := chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: key, Weight: 1}}}
	c.CreateAccountWithAuthority(name, auth, auth)
}

// CreateAccountWithAuthority creates an account with the given owner and
// active authorities (several keys, weights, thresholds, other accounts'
// permissions). Like every account chaintest makes outside a transaction,
// it starts with the RAM a real eosio::newaccount bills (ram_usage 2048,
// 288 for each permission, and each authority's keys, accounts and waits)
// and no RAM quota.
func (c *Chain) CreateAccountWithAuthority(name antelope.Name, owner, active chain.Authority) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.engine.CreateAccount(name, owner, active)
}

// AccountExists reports whether the chain has account n (on a fork: the
// live chain's, fetched, or one the fork made).
func (c *Chain) AccountExists(n antelope.Name) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.engine.Account(n) != nil
}

// SetPrivileged makes an account privileged (as eosio.bios's setpriv does):
// its contract may call the privileged intrinsics, send inline actions with
// any authority and bill RAM to any account.
func (c *Chain) SetPrivileged(acct antelope.Name, on bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.engine.SetPrivileged(acct, on)
}

// SetPermission adds or replaces a permission of an account (its parent
// defaults to active), billing the account's RAM as eosio::updateauth
// does: 288 bytes and the authority's size for a new permission, the
// difference for a replaced one. It fails, changing nothing, when that
// would take the account over its RAM quota.
func (c *Chain) SetPermission(acct, perm, parent antelope.Name, auth chain.Authority) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.engine.SetPermission(acct, perm, parent, auth)
}

// LinkPermission is linkauth without a transaction: actions of code named
// action (0: every action of code) may then be authorized by acct's perm
// (or any permission above it), as on a real chain — without a link an
// action needs active or owner, and a lower permission such as a hot key's
// is refused with irrelevant_auth_exception. perm eosio.any lets every
// permission of acct authorize them; perm 0 removes the link (unlinkauth).
// Native permission-managing actions (eosio::updateauth, deleteauth,
// linkauth, unlinkauth, canceldelay) cannot be linked, as on chain.
func (c *Chain) LinkPermission(acct, code, action, perm antelope.Name) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.engine.LinkPermission(acct, code, action, perm)
}

// NewAccount generates a key, creates the account with it and returns the
// key: the one line a test needs for a user. One key holds both owner and
// active, and the active permission also lists the account's own
// eosio.code permission, so that a contract deployed on it may send inline
// actions with its authority. (leap's tester differs: a key per permission,
// and eosio.code in owner as well as active; use CreateAccountWithAuthority
// for that shape.) The account's ram_usage is then 2756 bytes, what
// eosio::newaccount bills on a real chain for these two permissions (2048
// for the account, 288 for each permission, 50 for each K1 key and 32 for
// eosio.code), and it has no RAM quota.
func (c *Chain) NewAccount(name antelope.Name) antelope.PrivateKey {
	key, err := antelope.GeneratePrivateKey(nil)
	if err != nil {
		panic("chaintest: generating a key: " + err.Error())
	}
	pub, _ := key.PublicKey()
	owner := chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: pub, Weight: 1}}}
	active := owner
	active.Accounts = exec.CodeAuthority(name).Accounts
	c.CreateAccountWithAuthority(name, owner, active)
	return key
}

// Resources is an account's CPU and NET: the allowance SetResources gave
// (-1: unlimited, the default) and what the transactions billed to it used
// since (counted for unlimited accounts too).
type Resources struct {
	CPULimit int64 // µs; -1: unlimited
	CPUUsed  int64 // µs billed
	NETLimit int64 // bytes; -1: unlimited
	NETUsed  int64 // bytes billed
}

// SetResources limits the CPU (µs) and NET (bytes) an account's
// transactions may be billed from now on (-1: unlimited, every account's
// default), and forgets what it used. An account with 0 of either can send
// nothing unless another account pays: a transaction whose first action is
// authorized by a payer (a cosigner's noop) is billed to the payer.
//
// Usage does not recover with time here, as it does on a chain over a
// 24-hour window: call SetResources again for a fresh allowance.
// get_account reports the allowance as cpu_limit/net_limit (max, used,
// available) and, unless eosio.system set them, as cpu_weight/net_weight
// at one µs (byte) per unit of weight — so powerup.SampleAccount works on a
// chaintest account.
func (c *Chain) SetResources(acct antelope.Name, cpuUS, netBytes int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.engine.SetResources(acct, cpuUS, netBytes)
}

// Resources returns an account's CPU and NET allowance and usage.
func (c *Chain) Resources(acct antelope.Name) (Resources, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, err := c.engine.Resources(acct)
	if err != nil {
		return Resources{}, err
	}
	return Resources{CPULimit: r.CPULimit, CPUUsed: r.CPUUsed, NETLimit: r.NETLimit, NETUsed: r.NETUsed}, nil
}

// DeployWASM deploys a contract's code (its .wasm) and ABI (JSON, or the
// packed ABI; nil for none) at account, outside any transaction, as a
// fixture; the account is created (with no keys) if it does not exist.
// The account's RAM is billed for them as setcode and setabi bill it.
// The code is compiled once for the chain's life, whatever account runs
// it. Every action to the account then runs the code, in a fresh instance,
// with nodeos's intrinsics, iterators, RAM billing and limits.
func (c *Chain) DeployWASM(account antelope.Name, code, abi []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.engine.DeployWASM(account, code, abi); err != nil {
		return err
	}
	c.produce(nil)
	return nil
}

// SetContract deploys a contract at account: its ABI (the JSON the
// generated package embeds as ABIJSON) and its handler. The account is
// created (with no keys) if it does not exist. The handler and its ABI
// are billed no RAM; wasm code and an ABI they replace are refunded.
func (c *Chain) SetContract(acct antelope.Name, abiJSON []byte, handler Handler) error {
	ct, err := exec.GoContract(acct, abiJSON, adaptHandler(handler))
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.engine.SetContract(acct, ct)
	c.produce(nil)
	return nil
}

// SetTableRow stores a row directly, outside any transaction (a fixture),
// in the state of the next block. Its RAM is billed to payer as a
// contract's store would bill it (a replaced row refunded to its payer),
// so that the contract erasing it later refunds only what was billed; a
// fixture is not held to the RAM quota.
func (c *Chain) SetTableRow(code, scope, table antelope.Name, pk uint64, data []byte, payer antelope.Name, secondary ...antelope.TableKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.engine.SetTableRow(code, scope, table, pk, data, payer, secondary...)
}
