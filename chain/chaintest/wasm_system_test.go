package chaintest_test

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/model"
)

// The system contracts: eosio.msig's propose/approve/exec of a transfer,
// eosio.bios and eosio.system's actions that need no producers.

var nameEosio = antelope.MustName("eosio")

// packName and friends write action payloads by hand (the system
// contracts have no generated bindings here).
func packName(b []byte, names ...string) []byte {
	for _, n := range names {
		b = antelope.AppendUint64(b, uint64(antelope.MustName(n)))
	}
	return b
}

func packLevel(b []byte, actor, perm string) []byte { return packName(b, actor, perm) }

func packAsset(b []byte, a antelope.Asset) []byte {
	out, _ := a.AppendBinary(b)
	return out
}

// packAuthority is a one-key authority.
func packAuthority(b []byte, key antelope.PublicKey) []byte {
	b = antelope.AppendUint32(b, 1)
	b = antelope.AppendVarUint32(b, 1)
	b, _ = key.AppendBinary(b)
	b = antelope.AppendUint16(b, 1)
	b = antelope.AppendVarUint32(b, 0)
	return antelope.AppendVarUint32(b, 0)
}

func TestMsigProposeApproveExec(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("eosio.token", "eosio.msig", "alice", "bob", "carol", "rejecter")
	// treasury's active needs alice and bob.
	owner := chain.Authority{Threshold: 2, Accounts: []chain.PermissionLevelWeight{
		{Permission: antelope.Active(alice), Weight: 1}, {Permission: antelope.Active(bob), Weight: 1}}}
	treasury := antelope.MustName("treasury")
	w.c.CreateAccountWithAuthority(treasury, owner, owner)
	w.deploy("eosio.token", "eosio.token")
	w.deploy("eosio.msig", "eosio.msig")
	w.deploy("rejecter", "reject_all")
	must(t, w.c.SetPrivileged(antelope.MustName("eosio.msig"), true)) // as the system contract makes it
	tok := eosiotoken.Contract{Account: eosioToken}
	a, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: asset(t, "1000.0000 TKN")}, antelope.Active(eosioToken))
	w.mustPush(a)
	a, _ = tok.Issue(eosiotoken.Issue{To: alice, Quantity: asset(t, "100.0000 TKN")}, antelope.Active(alice))
	w.mustPush(a)
	a, _ = tok.Transfer(eosiotoken.Transfer{From: alice, To: treasury, Quantity: asset(t, "100.0000 TKN")}, antelope.Active(alice))
	w.mustPush(a)

	// The proposed transaction: treasury pays carol 10 TKN.
	pay, _ := tok.Transfer(eosiotoken.Transfer{From: treasury, To: antelope.MustName("carol"), Quantity: asset(t, "10.0000 TKN"), Memo: "msig"},
		antelope.Active(treasury))
	propose := func(name string, acts ...antelope.Action) error {
		tx := antelope.Transaction{Actions: acts, ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
		tx.SetExpiration(w.c.Head().Time.Add(3600e9))
		packed, err := tx.MarshalBinary()
		must(t, err)
		data := packName(nil, "alice", name)
		data = antelope.AppendVarUint32(data, 2)
		data = packLevel(data, "alice", "active")
		data = packLevel(data, "bob", "active")
		data = append(data, packed...)
		_, err = w.push(act("eosio.msig", "propose", data, "alice"))
		return err
	}
	approve := func(name, who string) error {
		data := packLevel(packName(nil, "alice", name), who, "active")
		_, err := w.push(act("eosio.msig", "approve", data, who))
		return err
	}
	exec := func(name string) error {
		_, err := w.push(act("eosio.msig", "exec", packName(nil, "alice", name, "alice"), "alice"))
		return err
	}
	must(t, propose("pay", pay))
	wantAssert(t, propose("pay", pay), "proposal with the same name exists")
	must(t, approve("pay", "alice"))
	wantAssert(t, exec("pay"), "transaction authorization failed") // bob has not approved
	wantAssert(t, approve("pay", "carol"), "approval is not on the list of requested approvals")
	must(t, approve("pay", "bob"))
	must(t, exec("pay"))
	wantAssert(t, exec("pay"), "proposal not found")
	if c, tr := tokenBalance(t, w, "carol", "4,TKN"), tokenBalance(t, w, "treasury", "4,TKN"); c != "10.0000 TKN" || tr != "90.0000 TKN" {
		t.Fatalf("carol %s, treasury %s", c, tr)
	}
	// A proposal whose action the receiving contract refuses (reject_all):
	// exec fails with its message and the proposal stays.
	rej := act("rejecter", "anything", nil, "treasury")
	must(t, propose("rej", rej))
	must(t, approve("rej", "alice"))
	must(t, approve("rej", "bob"))
	wantAssert(t, exec("rej"), "rejecting all actions")
	wantAssert(t, propose("rej"), "proposal with the same name exists")
}

func tokenBalance(t *testing.T, w *wasmTester, owner, sym string) string {
	t.Helper()
	s := antelope.MustSymbol(sym)
	for row, err := range eosiotoken.TableAccounts.Rows(t.Context(), w.cl, antelope.MustName(owner)) {
		must(t, err)
		if row.Balance.Symbol == s {
			return row.Balance.String()
		}
	}
	return antelope.Asset{Symbol: s}.String()
}

// eosioKey gives the eosio account a key (chaintest makes it with none).
func eosioKey(t *testing.T, w *wasmTester) {
	key, err := antelope.GeneratePrivateKey(nil)
	must(t, err)
	pub, _ := key.PublicKey()
	auth := chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: pub, Weight: 1}}}
	must(t, w.c.SetPermission(nameEosio, antelope.MustName("owner"), 0, auth))
	must(t, w.c.SetPermission(nameEosio, antelope.MustName("active"), antelope.MustName("owner"), auth))
	w.keys[nameEosio] = key
}

func TestBios(t *testing.T) {
	w := newWasmTester(t)
	eosioKey(t, w)
	w.deploy("eosio", "eosio.bios")
	key, _ := antelope.GeneratePrivateKey(nil)
	pub, _ := key.PublicKey()
	// newaccount: the native action, then bios's own (empty) handler.
	data := packName(nil, "eosio", "newuser")
	data = packAuthority(packAuthority(data, pub), pub)
	w.mustPush(act("eosio", "newaccount", data, "eosio"))
	w.keys[antelope.MustName("newuser")] = key
	wantException(t, func() error { _, err := w.push(act("eosio", "newaccount", data, "eosio")); return err }(),
		"account_name_exists_exception", "Cannot create account named newuser, as that name is already taken")
	// setpriv, setalimits: privileged intrinsics through bios.
	w.mustPush(act("eosio", "setpriv", append(packName(nil, "newuser"), 1), "eosio"))
	limits := packName(nil, "newuser")
	for _, v := range []int64{100000, 10, 20} {
		limits = antelope.AppendInt64(limits, v)
	}
	w.mustPush(act("eosio", "setalimits", limits, "eosio"))
	acct, err := w.cl.GetAccount(t.Context(), antelope.MustName("newuser"))
	if err != nil || !acct.Privileged || acct.RAMQuota != 100000 {
		t.Fatalf("newuser: %+v %v", acct, err)
	}
	// setparams; reqauth.
	params := antelope.AppendUint64(nil, 2*1024*1024)
	for range 14 {
		params = antelope.AppendUint32(params, 1000)
	}
	params = antelope.AppendUint16(antelope.AppendUint16(params, 4), 6)
	w.mustPush(act("eosio", "setparams", params, "eosio"))
	w.mustPush(act("eosio", "reqauth", packName(nil, "newuser"), "newuser"))
	_, err = w.push(act("eosio", "reqauth", packName(nil, "eosio"), "newuser"))
	wantException(t, err, "missing_auth_exception", "missing authority of eosio")
	// activate (preactivate_feature) once; reqactivated.
	digest := sha256.Sum256([]byte("a feature"))
	w.mustPush(act("eosio", "activate", digest[:], "eosio"))
	_, err = w.push(act("eosio", "activate", digest[:], "eosio"))
	if err == nil {
		t.Fatal("a feature activated twice")
	}
	w.mustPush(act("eosio", "reqactivated", digest[:], "eosio"))
	// A contract deployed through bios: bios records the ABI's hash.
	w.accounts("eosio.token")
	abi := contractFile(t, "eosio.token", "abi")
	_, err = w.cl.Deploy(t.Context(), w.keys[eosioToken], eosioToken, contractFile(t, "eosio.token", "wasm"), abi)
	must(t, err)
	src, _ := model.Load(abi)
	packed, _ := src.ABI.Pack()
	want := sha256.Sum256(packed)
	found := false
	for row, err := range w.cl.TableRows(t.Context(), antelope.TableQuery{Code: nameEosio, Scope: nameEosio, Table: antelope.MustName("abihash")}) {
		must(t, err)
		if antelope.Name(binary.LittleEndian.Uint64(row.Data)) == eosioToken {
			found = string(row.Data[8:]) == string(want[:])
		}
	}
	if !found {
		t.Error("bios did not record eosio.token's ABI hash")
	}
}

func TestSystemContract(t *testing.T) {
	w := newWasmTester(t)
	eosioKey(t, w)
	w.accounts("eosio.token", "eosio.ram", "eosio.ramfee", "eosio.stake", "eosio.rex", "eosio.bpay", "eosio.vpay",
		"eosio.names", "eosio.saving", "alice")
	w.deploy("eosio.token", "eosio.token")
	tok := eosiotoken.Contract{Account: eosioToken}
	a, _ := tok.Create(eosiotoken.Create{Issuer: nameEosio, MaximumSupply: asset(t, "10000000000.0000 SYS")}, antelope.Active(eosioToken))
	w.mustPush(a)
	a, _ = tok.Issue(eosiotoken.Issue{To: nameEosio, Quantity: asset(t, "1000000000.0000 SYS")}, antelope.Active(nameEosio))
	w.mustPush(a)
	w.deploy("eosio", "eosio.system")
	// init: the RAM market, and an inline open of eosio.rex's balance.
	sym, _ := antelope.MustSymbol("4,SYS").AppendBinary(nil)
	w.mustPush(act("eosio", "init", append([]byte{0}, sym...), "eosio"))
	_, err := w.push(act("eosio", "init", append([]byte{0}, sym...), "eosio"))
	wantAssert(t, err, "system contract has already been initialized")

	// newaccount + buyrambytes + delegatebw in one transaction, as cleos
	// system newaccount sends them.
	key, _ := antelope.GeneratePrivateKey(nil)
	pub, _ := key.PublicKey()
	na := packAuthority(packAuthority(packName(nil, "eosio", "bobbobbobbob"), pub), pub)
	ram := antelope.AppendUint32(packName(nil, "eosio", "bobbobbobbob"), 8192)
	bw := packAsset(packAsset(packName(nil, "eosio", "bobbobbobbob"), asset(t, "10.0000 SYS")), asset(t, "10.0000 SYS"))
	bw = append(bw, 1)
	w.mustPush(act("eosio", "newaccount", na, "eosio"), act("eosio", "buyrambytes", ram, "eosio"), act("eosio", "delegatebw", bw, "eosio"))
	w.keys[antelope.MustName("bobbobbobbob")] = key
	acct, err := w.cl.GetAccount(t.Context(), antelope.MustName("bobbobbobbob"))
	if err != nil || acct.RAMQuota < 8192 {
		t.Fatalf("bobbobbobbob: %+v %v", acct, err)
	}
	if got := tokenBalance(t, w, "eosio.stake", "4,SYS"); got != "20.0000 SYS" {
		t.Fatalf("eosio.stake: %s", got)
	}
	// A name shorter than 12 characters needs a bid.
	na = packAuthority(packAuthority(packName(nil, "bobbobbobbob", "short"), pub), pub)
	_, err = w.push(act("eosio", "newaccount", na, "bobbobbobbob"))
	wantAssert(t, err, "no active bid for name")

	// regproducer and a vote: idx64 and idx_double tables, float math.
	reg := packName(nil, "bobbobbobbob")
	reg, _ = pub.AppendBinary(reg)
	reg, _ = antelope.AppendString(reg, "https://example.com")
	reg = antelope.AppendUint16(reg, 0)
	w.mustPush(act("eosio", "regproducer", reg, "bobbobbobbob"))
	vote := packName(nil, "bobbobbobbob", "")
	vote = antelope.AppendVarUint32(vote, 1)
	vote = packName(vote, "bobbobbobbob")
	w.mustPush(act("eosio", "voteproducer", vote, "bobbobbobbob"))
	for row, err := range w.cl.TableRows(t.Context(), antelope.TableQuery{Code: nameEosio, Scope: nameEosio, Table: antelope.MustName("producers")}) {
		must(t, err)
		d := antelope.NewDecoder(row.Data)
		owner, _ := d.Uint64()
		votes, _ := d.Float64()
		if antelope.Name(owner) != antelope.MustName("bobbobbobbob") || !(votes > 0) || math.IsInf(votes, 0) {
			t.Fatalf("producer %s with %v votes", antelope.Name(owner), votes)
		}
	}
	// The producers table's secondary index (by total votes) is readable
	// as get_table_rows reads index positions.
	n := 0
	for _, err := range w.cl.TableRows(t.Context(), antelope.TableQuery{Code: nameEosio, Scope: nameEosio, Table: antelope.MustName("producers"),
		Index: 2, KeyType: antelope.IndexFloat64}) {
		must(t, err)
		n++
	}
	if n != 1 {
		t.Fatalf("%d rows by votes", n)
	}
}
