package model_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/model"
)

// A signing request for a plain transfer resolves with the generated
// package's ABI (or the packed ABI), with no model.Load or Resolve by hand.
func TestContractsOfResolvesATransferRequest(t *testing.T) {
	tokenAcct, shop := antelope.MustName("eosio.token"), antelope.MustName("shop")
	src, err := model.Load(eosiotoken.ABIJSON)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := src.ABI.Pack()
	if err != nil {
		t.Fatal(err)
	}
	act, err := eosiotoken.Contract{Account: tokenAcct}.Transfer(eosiotoken.Transfer{
		From: antelope.ESRPlaceholderActor, To: shop, Quantity: antelope.MustAsset("1.0000 EOS"), Memo: "order 42",
	}, antelope.ESRPlaceholderAuth)
	if err != nil {
		t.Fatal(err)
	}
	req := antelope.NewESR(antelope.ESRChainFor(antelope.Checksum256{1}), act)
	signer := antelope.PermissionLevel{Actor: antelope.MustName("alice"), Permission: antelope.MustName("active")}
	ctx := antelope.ESRContext{Expiration: 1_700_000_000, RefBlockNum: 1, RefBlockPrefix: 2}
	var digests [][]byte
	for _, abi := range [][]byte{eosiotoken.ABIJSON, packed} {
		names, err := model.ContractsOf(map[antelope.Name][]byte{tokenAcct: abi})
		if err != nil {
			t.Fatal(err)
		}
		res, err := req.Resolve(signer, ctx, names)
		if err != nil {
			t.Fatal(err)
		}
		var tr eosiotoken.Transfer
		if err := tr.UnmarshalBinary(res.Transaction.Actions[0].Data); err != nil || tr.From != signer.Actor || tr.To != shop {
			t.Fatalf("resolved transfer %+v, %v", tr, err)
		}
		d, err := res.SigningDigest()
		if err != nil {
			t.Fatal(err)
		}
		digests = append(digests, d[:])
	}
	if !bytes.Equal(digests[0], digests[1]) {
		t.Error("the JSON and packed ABIs resolve differently")
	}
	if _, err := model.ContractsOf(map[antelope.Name][]byte{tokenAcct: []byte(`{"version":"1.0.0"}`)}); err == nil || !strings.Contains(err.Error(), "eosio.token") {
		t.Errorf("a bad ABI: %v, want an error naming its account", err)
	}
}

// A saved API response names the account its ABI belongs to; given under
// another account it is someone else's ABI, and resolving with it would
// encode that account's actions with the wrong types: an error, as the CLI's
// --account check is.
func TestContractsOfRefusesAnotherAccountsResponse(t *testing.T) {
	resp := []byte(`{"account_name":"eosio.token","abi":` + string(eosiotoken.ABIJSON) + `}`)
	if _, err := model.ContractsOf(map[antelope.Name][]byte{antelope.MustName("eosio.token"): resp}); err != nil {
		t.Fatalf("the account's own response: %v", err)
	}
	_, err := model.ContractsOf(map[antelope.Name][]byte{antelope.MustName("fake.token"): resp})
	if err == nil || !strings.Contains(err.Error(), "fake.token") || !strings.Contains(err.Error(), "eosio.token") {
		t.Fatalf("eosio.token's response given as fake.token's ABI: %v, want an error naming both", err)
	}
}
