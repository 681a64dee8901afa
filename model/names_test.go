package model

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

func TestRewriteNames(t *testing.T) {
	src, err := Load([]byte(`{"version":"eosio::abi/1.1","types":[{"new_type_name":"account_name","type":"name"}],
	"structs":[
	 {"name":"pay","base":"","fields":[{"name":"from","type":"account_name"},{"name":"tos","type":"name[]"},
	  {"name":"fee","type":"extended_asset"},{"name":"memo","type":"string"},{"name":"who","type":"who"},{"name":"extra","type":"name$"}]},
	 {"name":"who","base":"","fields":[{"name":"n","type":"name?"}]}],
	"variants":[],
	"actions":[{"name":"pay","type":"pay","ricardian_contract":""}],"tables":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Resolve(src.ABI)
	if err != nil {
		t.Fatal(err)
	}
	// from=1, tos=[2, 7], fee=1.0000 EOS@1, memo="\x01…", who.n=1, no extra
	data, _ := hex.DecodeString("0100000000000000" + "02" + "0200000000000000" + "0700000000000000" +
		"102700000000000004454f5300000000" + "0100000000000000" +
		"08" + "0100000000000000" + "01" + "0100000000000000")
	rewrite := func(n antelope.Name) antelope.Name {
		if n == 1 || n == 2 {
			return n + 100
		}
		return n
	}
	out, err := m.RewriteNames("pay", bytes.Clone(data), rewrite)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := hex.DecodeString("6500000000000000" + "02" + "6600000000000000" + "0700000000000000" +
		"102700000000000004454f5300000000" + "6500000000000000" +
		"08" + "0100000000000000" + "01" + "6500000000000000")
	if !bytes.Equal(out, want) {
		t.Errorf("rewritten\n got %x\nwant %x", out, want)
	}
	// The binary extension present, then refusals.
	if out, err := m.RewriteNames("pay", append(bytes.Clone(data), 1, 0, 0, 0, 0, 0, 0, 0), rewrite); err != nil || out[len(out)-8] != 101 {
		t.Errorf("with the extension: %x, %v", out, err)
	}
	for name, bad := range map[string][]byte{"short": data[:20], "trailing": append(bytes.Clone(data), 1), "bad asset": func() []byte {
		b := bytes.Clone(data)
		b[34] = 'e' // a lowercase symbol code
		return b
	}()} {
		if _, err := m.RewriteNames("pay", bad, rewrite); err == nil {
			t.Errorf("%s: rewritten", name)
		}
	}
	if _, err := m.RewriteNames("nope", data, rewrite); err == nil {
		t.Error("an unknown action was rewritten")
	}
	contract, _ := antelope.ParseName("shop")
	if _, err := (Contracts{}).RewriteNames(contract, 1, data, rewrite); err == nil {
		t.Error("a contract without an ABI was rewritten")
	}
}
