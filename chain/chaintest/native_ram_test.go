package chaintest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
)

// The RAM eosio's native actions bill, from leap's sources
// (eosio_contract.cpp and the billable_size specializations, each rounded
// up to 16 bytes):
//
//	overhead_per_account_ram_bytes           2048
//	permission_object  (64+64) + 5×32 =       288
//	permission_link_object  40 + 3×32 = 136 → 144
//	key_weight 8 → 16, plus the packed key (K1: 1+33 = 34) = 50 a key
//	permission_level_weight 24 → 32 an account
//	wait_weight                16 a wait
const (
	ramAccount = 2048
	ramPerm    = 288
	ramLink    = 144
	ramKey     = 16 + 34
	ramLevel   = 32
	ramWait    = 16
)

// packAuth appends an authority as eosio's actions carry it.
func packAuth(b []byte, a chain.Authority) []byte {
	b = antelope.AppendUint32(b, a.Threshold)
	b = antelope.AppendVarUint32(b, uint32(len(a.Keys)))
	for _, k := range a.Keys {
		b, _ = k.Key.AppendBinary(b)
		b = antelope.AppendUint16(b, k.Weight)
	}
	b = antelope.AppendVarUint32(b, uint32(len(a.Accounts)))
	for _, p := range a.Accounts {
		b = antelope.AppendUint64(antelope.AppendUint64(b, uint64(p.Permission.Actor)), uint64(p.Permission.Permission))
		b = antelope.AppendUint16(b, p.Weight)
	}
	b = antelope.AppendVarUint32(b, uint32(len(a.Waits)))
	for _, w := range a.Waits {
		b = antelope.AppendUint16(antelope.AppendUint32(b, w.WaitSec), w.Weight)
	}
	return b
}

func newPub(t *testing.T) antelope.PublicKey {
	t.Helper()
	k, err := antelope.GeneratePrivateKey(nil)
	must(t, err)
	pub, _ := k.PublicKey()
	return pub
}

func keyAuth(keys ...antelope.PublicKey) chain.Authority {
	a := chain.Authority{Threshold: 1}
	for _, k := range keys {
		a.Keys = append(a.Keys, chain.KeyWeight{Key: k, Weight: 1})
	}
	// validate(authority) wants keys sorted as packed.
	for i := 1; i < len(a.Keys); i++ {
		for j := i; j > 0 && string(packed(a.Keys[j].Key)) < string(packed(a.Keys[j-1].Key)); j-- {
			a.Keys[j], a.Keys[j-1] = a.Keys[j-1], a.Keys[j]
		}
	}
	return a
}

func packed(k antelope.PublicKey) []byte {
	b, _ := k.MarshalBinary()
	return b
}

func newaccountAct(creator, name string, owner, active chain.Authority) antelope.Action {
	return act("eosio", "newaccount", packAuth(packAuth(packName(nil, creator, name), owner), active), creator)
}

func updateauthAct(account, perm, parent string, auth chain.Authority) antelope.Action {
	return act("eosio", "updateauth", packAuth(packName(nil, account, perm, parent), auth), account)
}

func ramUsage(t *testing.T, w *wasmTester, name string) int64 {
	t.Helper()
	acct, err := w.cl.GetAccount(t.Context(), antelope.MustName(name))
	must(t, err)
	return int64(acct.RAMUsage)
}

// wantRAM checks a transaction's account_ram_deltas, summed by account.
func wantRAM(t *testing.T, what string, res *chain.TransactResult, want map[string]int64) {
	t.Helper()
	got := ramDeltas(t, res)
	for k, v := range got {
		if v == 0 {
			delete(got, k)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: account_ram_deltas %v, want %v", what, got, want)
		return
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: account_ram_deltas %v, want %v", what, got, want)
			return
		}
	}
}

func TestNewaccountBillsRAM(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("alice")
	// Keys only: 2048 + 2×288 + 50 + 50 = 2724.
	res := w.mustPush(newaccountAct("alice", "bob", keyAuth(newPub(t)), keyAuth(newPub(t))))
	wantRAM(t, "newaccount bob", res, map[string]int64{"bob": 2724})
	if got := ramUsage(t, w, "bob"); got != ramAccount+2*ramPerm+2*ramKey {
		t.Errorf("bob's ram_usage %d, want 2724", got)
	}
	// Accounts and waits: owner = 1 key + 1 account = 50+32 = 82; active =
	// 1 key + 2 accounts + 2 waits = 50+64+32 = 146; 2048+576+82+146 = 2852.
	owner := keyAuth(newPub(t))
	owner.Threshold = 2
	owner.Accounts = []chain.PermissionLevelWeight{{Permission: antelope.Active(antelope.MustName("alice")), Weight: 1}}
	active := keyAuth(newPub(t))
	active.Accounts = []chain.PermissionLevelWeight{
		{Permission: antelope.PermissionLevel{Actor: antelope.MustName("alice"), Permission: antelope.MustName("active")}, Weight: 1},
		{Permission: antelope.PermissionLevel{Actor: antelope.MustName("alice"), Permission: antelope.MustName("owner")}, Weight: 1}}
	active.Waits = []chain.WaitWeight{{WaitSec: 60, Weight: 1}, {WaitSec: 3600, Weight: 1}}
	res = w.mustPush(newaccountAct("alice", "carol", owner, active))
	wantRAM(t, "newaccount carol", res, map[string]int64{"carol": 2852})
	if got := ramUsage(t, w, "carol"); got != ramAccount+2*ramPerm+2*ramKey+3*ramLevel+2*ramWait {
		t.Errorf("carol's ram_usage %d, want 2852", got)
	}
}

func TestUpdateauthDeleteauthBillRAM(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("alice")
	base := ramUsage(t, w, "alice")
	k1, k2 := newPub(t), newPub(t)
	// A new permission: 288 + 50 = 338.
	res := w.mustPush(updateauthAct("alice", "hot", "active", keyAuth(k1)))
	wantRAM(t, "updateauth add", res, map[string]int64{"alice": ramPerm + ramKey})
	if got := ramUsage(t, w, "alice"); got != base+338 {
		t.Errorf("after adding hot: ram_usage %d, want %d", got, base+338)
	}
	// A second key: the difference, 50.
	res = w.mustPush(updateauthAct("alice", "hot", "active", keyAuth(k1, k2)))
	wantRAM(t, "updateauth grow", res, map[string]int64{"alice": ramKey})
	// A key replaced by an account: 32 − 50 = −18.
	auth := keyAuth(k1)
	auth.Accounts = []chain.PermissionLevelWeight{{Permission: antelope.Active(antelope.MustName("alice")), Weight: 1}}
	res = w.mustPush(updateauthAct("alice", "hot", "active", auth))
	wantRAM(t, "updateauth shrink", res, map[string]int64{"alice": ramLevel - ramKey})
	if got := ramUsage(t, w, "alice"); got != base+338+50-18 {
		t.Errorf("after changing hot: ram_usage %d, want %d", got, base+338+50-18)
	}
	// The same authority again: a change of nothing bills nothing.
	res = w.mustPush(updateauthAct("alice", "hot", "active", auth))
	wantRAM(t, "updateauth same", res, map[string]int64{})
	// active itself is a permission like any other: alice's key and
	// eosio.code (50+32) become her key and k2 (50+50), +18.
	alicePub, _ := w.keys[antelope.MustName("alice")].PublicKey()
	res = w.mustPush(updateauthAct("alice", "active", "owner", keyAuth(alicePub, k2)))
	wantRAM(t, "updateauth active", res, map[string]int64{"alice": ramKey - ramLevel})
	// deleteauth refunds the permission as it is: 288 + 50 + 32 = 370.
	res = w.mustPush(act("eosio", "deleteauth", packName(nil, "alice", "hot"), "alice"))
	wantRAM(t, "deleteauth", res, map[string]int64{"alice": -(ramPerm + ramKey + ramLevel)})
	if got := ramUsage(t, w, "alice"); got != base+18 {
		t.Errorf("after deleteauth: ram_usage %d, want %d", got, base+18)
	}
}

func TestLinkauthBillsRAM(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("alice", "svc")
	w.mustPush(updateauthAct("alice", "hot", "active", keyAuth(newPub(t))))
	w.mustPush(updateauthAct("alice", "cold", "active", keyAuth(newPub(t))))
	base := ramUsage(t, w, "alice")
	link := func(perm string) antelope.Action {
		return act("eosio", "linkauth", packName(nil, "alice", "svc", "ping", perm), "alice")
	}
	res := w.mustPush(link("hot"))
	wantRAM(t, "linkauth", res, map[string]int64{"alice": ramLink})
	// Relinking modifies the link in place: nothing billed.
	res = w.mustPush(link("cold"))
	wantRAM(t, "linkauth again", res, map[string]int64{})
	if got := ramUsage(t, w, "alice"); got != base+144 {
		t.Errorf("after linkauth: ram_usage %d, want %d", got, base+144)
	}
	res = w.mustPush(act("eosio", "unlinkauth", packName(nil, "alice", "svc", "ping"), "alice"))
	wantRAM(t, "unlinkauth", res, map[string]int64{"alice": -ramLink})
	if got := ramUsage(t, w, "alice"); got != base {
		t.Errorf("after unlinkauth: ram_usage %d, want %d", got, base)
	}
}

// A transaction that fails leaves no RAM billed, whatever its native
// actions did before the failure; Rollback undoes committed ones.
func TestNativeRAMUndone(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("alice", "svc")
	base := ramUsage(t, w, "alice")
	_, err := w.push(
		updateauthAct("alice", "hot", "active", keyAuth(newPub(t))),
		act("eosio", "linkauth", packName(nil, "alice", "svc", "ping", "hot"), "alice"),
		newaccountAct("alice", "bob", keyAuth(newPub(t)), keyAuth(newPub(t))),
		act("eosio", "deleteauth", packName(nil, "alice", "nosuch"), "alice"))
	if err == nil {
		t.Fatal("deleteauth of a missing permission succeeded")
	}
	if got := ramUsage(t, w, "alice"); got != base {
		t.Errorf("after a failed transaction: ram_usage %d, want %d", got, base)
	}
	if _, err := w.cl.GetAccount(t.Context(), antelope.MustName("bob")); err == nil {
		t.Error("bob exists after a failed transaction")
	}
	head := w.c.Produce().Num // a state holding alice to roll back to
	w.mustPush(updateauthAct("alice", "hot", "active", keyAuth(newPub(t))))
	if got := ramUsage(t, w, "alice"); got != base+338 {
		t.Fatalf("after updateauth: ram_usage %d, want %d", got, base+338)
	}
	must(t, w.c.Rollback(head))
	if got := ramUsage(t, w, "alice"); got != base {
		t.Errorf("after Rollback: ram_usage %d, want %d", got, base)
	}
}

// A RAM quota (set_resource_limits, here bios's setalimits) refuses
// native actions that go over it, as nodeos's verify_account_ram_usage
// does at the end of the transaction; refunds always pass.
func TestNativeRAMQuota(t *testing.T) {
	w := newWasmTester(t)
	eosioKey(t, w)
	w.deploy("eosio", "eosio.bios")
	w.accounts("alice")
	limits := func(account string, ram int64) antelope.Action {
		b := packName(nil, account)
		for _, v := range []int64{ram, -1, -1} {
			b = antelope.AppendInt64(b, v)
		}
		return act("eosio", "setalimits", b, "eosio")
	}
	// newaccount with a quota one byte short of its 2724 bytes, set in
	// the same transaction as eosio.system's newaccount sets it.
	_, err := w.push(newaccountAct("eosio", "bob", keyAuth(newPub(t)), keyAuth(newPub(t))), limits("bob", 2723))
	wantException(t, err, "ram_usage_exceeded", "account bob has insufficient ram; needs 2724 bytes has 2723 bytes")
	w.mustPush(newaccountAct("eosio", "bob", keyAuth(newPub(t)), keyAuth(newPub(t))), limits("bob", 2724))

	// updateauth over the quota: refused, and nothing changes.
	base := ramUsage(t, w, "alice")
	w.mustPush(limits("alice", base+337))
	_, err = w.push(updateauthAct("alice", "hot", "active", keyAuth(newPub(t))))
	wantException(t, err, "ram_usage_exceeded", "account alice has insufficient ram; needs "+itoa(base+338)+" bytes has "+itoa(base+337)+" bytes")
	if got := ramUsage(t, w, "alice"); got != base {
		t.Errorf("after a refused updateauth: ram_usage %d, want %d", got, base)
	}
	w.mustPush(limits("alice", base+338))
	w.mustPush(updateauthAct("alice", "hot", "active", keyAuth(newPub(t))))
	// At the quota: linkauth is refused, deleteauth (a refund) passes.
	_, err = w.push(act("eosio", "linkauth", packName(nil, "alice", "eosio", "reqauth", "hot"), "alice"))
	wantException(t, err, "ram_usage_exceeded", "account alice has insufficient ram; needs "+itoa(base+338+144)+" bytes has "+itoa(base+338)+" bytes")
	w.mustPush(act("eosio", "deleteauth", packName(nil, "alice", "hot"), "alice"))
	if got := ramUsage(t, w, "alice"); got != base {
		t.Errorf("after deleteauth: ram_usage %d, want %d", got, base)
	}
	// The test helpers keep to the quota too: two keys (288+100) do not
	// fit in 338 bytes, one does.
	alice, hot := antelope.MustName("alice"), antelope.MustName("hot")
	err = w.c.SetPermission(alice, hot, 0, keyAuth(newPub(t), newPub(t)))
	if err == nil || !strings.Contains(err.Error(), "insufficient ram; needs "+itoa(base+388)) {
		t.Errorf("SetPermission over the quota: %v", err)
	}
	must(t, w.c.SetPermission(alice, hot, 0, keyAuth(newPub(t))))
	if err := w.c.LinkPermission(alice, nameEosio, 0, hot); err == nil {
		t.Error("LinkPermission over the quota succeeded")
	}
	if got := ramUsage(t, w, "alice"); got != base+338 {
		t.Errorf("after SetPermission: ram_usage %d, want %d", got, base+338)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Accounts the Go API makes carry what eosio::newaccount would bill for
// them, as nodeos's genesis accounts do, and SetPermission and
// LinkPermission bill as updateauth and linkauth: a permission made by a
// helper and deleted by deleteauth leaves the account where it began.
func TestGoAPIAccountsBillAsNewaccount(t *testing.T) {
	c := chaintest.New(chaintest.WithoutNetwork())
	t.Cleanup(c.Close)
	cl := c.Client()
	usage := func(name string) int64 {
		t.Helper()
		acct, err := cl.GetAccount(t.Context(), antelope.MustName(name))
		must(t, err)
		return int64(acct.RAMUsage)
	}
	// eosio, with no keys: 2048 + 2×288 = 2624.
	if got := usage("eosio"); got != ramAccount+2*ramPerm {
		t.Errorf("eosio's ram_usage %d, want 2624", got)
	}
	// CreateAccount: a key in each permission, 2048 + 576 + 2×50 = 2724.
	c.CreateAccount(antelope.MustName("bob"), newPub(t))
	if got := usage("bob"); got != ramAccount+2*ramPerm+2*ramKey {
		t.Errorf("bob's ram_usage %d, want 2724", got)
	}
	// NewAccount: active also lists eosio.code, 2724 + 32 = 2756.
	alice := antelope.MustName("alice")
	key := c.NewAccount(alice)
	if got := usage("alice"); got != ramAccount+2*ramPerm+2*ramKey+ramLevel {
		t.Errorf("alice's ram_usage %d, want 2756", got)
	}
	// SetPermission: +288+50; LinkPermission: +144.
	hot := antelope.MustName("hot")
	must(t, c.SetPermission(alice, hot, 0, keyAuth(newPub(t))))
	must(t, c.LinkPermission(alice, antelope.MustName("bob"), 0, hot))
	if got := usage("alice"); got != 2756+338+144 {
		t.Errorf("alice's ram_usage %d, want %d", got, 2756+338+144)
	}
	// unlinkauth and deleteauth refund them exactly.
	tx := func(action string, names ...antelope.Name) {
		t.Helper()
		var data []byte
		for _, n := range names {
			data = antelope.AppendUint64(data, uint64(n))
		}
		c.Produce()
		_, err := cl.Transact(t.Context(), key, antelope.Action{Account: antelope.MustName("eosio"), Name: antelope.MustName(action),
			Authorization: []antelope.PermissionLevel{antelope.Active(alice)}, Data: data})
		must(t, err)
	}
	tx("unlinkauth", alice, antelope.MustName("bob"), 0)
	tx("deleteauth", alice, hot)
	if got := usage("alice"); got != 2756 {
		t.Errorf("alice's ram_usage %d, want 2756", got)
	}
}

// DeployWASM bills code and ABI as setcode and setabi would, so that a
// later setcode or setabi refunds only what was billed.
func TestDeployWASMBillsAsSetcode(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("alice")
	base := ramUsage(t, w, "alice")
	w.deploy("alice", "eosio.token")
	code := contractFile(t, "eosio.token", "wasm")
	abi, _, err := w.cl.GetRawABI(t.Context(), antelope.MustName("alice"))
	must(t, err)
	if got, want := ramUsage(t, w, "alice"), base+10*int64(len(code))+int64(len(abi)); got != want {
		t.Errorf("after DeployWASM: ram_usage %d, want %d (code %d ×10, ABI %d)", got, want, len(code), len(abi))
	}
	// Clearing the code refunds its ten times its size; the ABI stays.
	clear := antelope.AppendVarUint32(append(packName(nil, "alice"), 0, 0), 0)
	res := w.mustPush(act("eosio", "setcode", clear, "alice"))
	wantRAM(t, "setcode clear", res, map[string]int64{"alice": -10 * int64(len(code))})
	if got, want := ramUsage(t, w, "alice"), base+int64(len(abi)); got != want {
		t.Errorf("after clearing the code: ram_usage %d, want %d", got, want)
	}
}

// eosio's native actions that change state refuse to run in a read-only
// transaction, with nodeos's messages (setabi's typo included).
func TestNativeActionsRefuseReadOnly(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("alice")
	for _, name := range []string{"newaccount", "setcode", "setabi", "updateauth", "deleteauth", "linkauth", "unlinkauth", "canceldelay"} {
		a := antelope.Action{Account: nameEosio, Name: antelope.MustName(name), Authorization: []antelope.PermissionLevel{}, Data: packName(nil, "alice")}
		_, err := w.cl.SendReadOnly(t.Context(), a)
		want := name + " not allowed in read-only transaction"
		if name == "setabi" {
			want = "setabi ot allowed in read-only transaction"
		}
		wantException(t, err, "action_validate_exception", want)
	}
}

// updateauth refuses a wait longer than the chain's max_transaction_delay
// (45 days by default), as nodeos does; chaintest accepted any.
func TestUpdateauthWaitWithinMaxDelay(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("alice")
	auth := keyAuth(newPub(t))
	auth.Waits = []chain.WaitWeight{{WaitSec: 45*24*3600 + 1, Weight: 1}}
	_, err := w.push(updateauthAct("alice", "slow", "active", auth))
	wantException(t, err, "action_validate_exception", "Cannot set delay longer than max_transacton_delay, which is 3888000 seconds")
	auth.Waits[0].WaitSec = 45 * 24 * 3600
	w.mustPush(updateauthAct("alice", "slow", "active", auth))
}
