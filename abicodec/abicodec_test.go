package abicodec_test

import (
	"testing"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/internal/hostileabi"
	"github.com/antelopego/abigen/model"
)

// A packed ABI (as an account delta or get_raw_abi carries it) and an
// action's data.
func TestPackedABIAction(t *testing.T) {
	src, err := model.Load(eosiotoken.ABIJSON)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := src.ABI.Pack()
	if err != nil {
		t.Fatal(err)
	}
	c, err := abicodec.New(packed)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := antelope.ParseAsset("1.0000 WAX")
	data, _ := (&eosiotoken.Transfer{From: antelope.MustName("alice"), To: antelope.MustName("bob"), Quantity: q, Memo: "hi"}).MarshalBinary()
	got, err := c.ActionJSON(eosiotoken.ActionTransfer, data)
	if err != nil || string(got) != `{"from":"alice","to":"bob","quantity":"1.0000 WAX","memo":"hi"}` {
		t.Fatalf("%s %v", got, err)
	}
	if _, err := c.ActionJSON(antelope.MustName("nothing"), data); err == nil {
		t.Error("unknown action decoded")
	}
	if _, err := c.ActionJSON(eosiotoken.ActionTransfer, data[:5]); err == nil {
		t.Error("short data decoded")
	}
	if _, err := c.TableJSON(antelope.MustName("accounts"), []byte{1, 2}); err == nil {
		t.Error("short row decoded")
	}
}

// TestWideStructGraph: an ABI whose struct graph has 24^12 paths decodes
// an empty array of its top struct at once. The array's smallest element
// was computed on every array read by walking the graph nine levels deep:
// 24^9 steps for the one byte of {"list":[]}, from a 13 KB ABI any
// contract can set.
func TestWideStructGraph(t *testing.T) {
	c, err := abicodec.New(hostileabi.Wide(12, 24, "uint8"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.ActionJSON(antelope.MustName("act"), []byte{0})
	if err != nil || string(got) != `{"list":[]}` {
		t.Fatalf("%s %v", got, err)
	}
	if _, err := c.ActionJSON(antelope.MustName("act"), []byte{1, 0}); err == nil {
		t.Error("an element of 2^20 bytes or more decoded from one byte")
	}
}
