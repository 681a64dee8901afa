package chaintest_test

import (
	"bytes"
	"testing"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/golden/eosiosystem"
)

// A voters row written by the real eosio.system wasm holds reserved3 =
// asset{} (amount 0, the all-zero symbol), which nodeos accepts and prints
// as "0 ". The generated bindings and abicodec must read it, and the
// bindings must write the same bytes back.
func TestSystemVotersRowWithZeroAsset(t *testing.T) {
	w := newWasmTester(t)
	eosioKey(t, w)
	w.accounts("eosio.token", "eosio.ram", "eosio.ramfee", "eosio.stake", "eosio.rex")
	w.deploy("eosio.token", "eosio.token")
	tok := eosiotoken.Contract{Account: eosioToken}
	a, _ := tok.Create(eosiotoken.Create{Issuer: nameEosio, MaximumSupply: asset(t, "10000000000.0000 SYS")}, antelope.Active(eosioToken))
	w.mustPush(a)
	a, _ = tok.Issue(eosiotoken.Issue{To: nameEosio, Quantity: asset(t, "1000000000.0000 SYS")}, antelope.Active(nameEosio))
	w.mustPush(a)
	w.deploy("eosio", "eosio.system")
	sym, _ := antelope.MustSymbol("4,SYS").AppendBinary(nil)
	w.mustPush(act("eosio", "init", append([]byte{0}, sym...), "eosio"))
	// newaccount + buyrambytes + delegatebw with transfer, as cleos system
	// newaccount sends them: the contract emplaces bobbobbobbob's voters row.
	key, _ := antelope.GeneratePrivateKey(nil)
	pub, _ := key.PublicKey()
	na := packAuthority(packAuthority(packName(nil, "eosio", "bobbobbobbob"), pub), pub)
	ram := antelope.AppendUint32(packName(nil, "eosio", "bobbobbobbob"), 8192)
	bw := packAsset(packAsset(packName(nil, "eosio", "bobbobbobbob"), asset(t, "1.0000 SYS")), asset(t, "1.0000 SYS"))
	w.mustPush(act("eosio", "newaccount", na, "eosio"), act("eosio", "buyrambytes", ram, "eosio"), act("eosio", "delegatebw", append(bw, 1), "eosio"))

	codec, err := abicodec.New(contractFile(t, "eosio.system", "abi"))
	must(t, err)
	rows := 0
	for row, err := range w.cl.TableRows(t.Context(), antelope.TableQuery{Code: nameEosio, Scope: nameEosio, Table: antelope.MustName("voters")}) {
		must(t, err)
		rows++
		var v eosiosystem.VoterInfo
		if err := v.UnmarshalBinary(row.Data); err != nil {
			t.Fatalf("voters row %x: %v", row.Data, err)
		}
		if v.Reserved3 != (antelope.Asset{}) {
			t.Fatalf("reserved3 = %#v, want asset{}", v.Reserved3)
		}
		back, err := v.MarshalBinary()
		if err != nil || !bytes.Equal(back, row.Data) {
			t.Fatalf("row re-encoded as %x, %v; want %x", back, err, row.Data)
		}
		j, err := codec.TableJSON(antelope.MustName("voters"), row.Data)
		if err != nil {
			t.Fatalf("abicodec: %v", err)
		}
		if !bytes.Contains(j, []byte(`"reserved3":"0 "`)) {
			t.Fatalf("abicodec JSON %s lacks nodeos's \"reserved3\":\"0 \"", j)
		}
		// The bindings (of a later ABI, where reserved1 is flags1) print
		// and read the same "0 ".
		bj, err := v.MarshalJSON()
		if err != nil || !bytes.Contains(bj, []byte(`"reserved3":"0 "`)) {
			t.Fatalf("bindings' JSON %s, %v; want \"reserved3\":\"0 \"", bj, err)
		}
		var fromJSON eosiosystem.VoterInfo
		if err := fromJSON.UnmarshalJSON(bj); err != nil {
			t.Fatalf("bindings reading their JSON %s: %v", bj, err)
		}
		if again, _ := fromJSON.MarshalBinary(); !bytes.Equal(again, row.Data) {
			t.Fatalf("row through JSON is %x, want %x", again, row.Data)
		}
	}
	if rows == 0 {
		t.Fatal("delegatebw wrote no voters row")
	}
}
