package chaintest_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/generated/randcontract"
	"github.com/antelopego/abigen/golden/atomicassets"
	"github.com/antelopego/abigen/golden/tablekeys"
)

// End to end through generated bindings: typed tables read over the chain
// API and the state service, a secondary index, action results.

func TestTypedTokenTables(t *testing.T) {
	for _, impl := range tokenImpls {
		t.Run(impl, func(t *testing.T) { typedTokenTables(t, impl) })
	}
}

func typedTokenTables(t *testing.T, impl string) {
	c, keys := tokenChainOf(t, impl)
	cl := c.Client()
	before := c.Head().Num
	tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(7)}, antelope.Active(alice))
	res, err := cl.Transact(t.Context(), keys[alice], tr)
	if err != nil {
		t.Fatal(err)
	}
	accounts := eosiotoken.TableAccounts // Code is DefaultAccount: the ABI was generated with --account eosio.token
	got, err := accounts.Get(t.Context(), cl, bob, uint64(waxSym.Code))
	if err != nil || got.Balance != wax(7) {
		t.Fatalf("bob's balance: %v, %v", got, err)
	}
	// At the block before the transfer, over the state service: no row.
	if _, err := accounts.Get(t.Context(), c.State().At(before), bob, uint64(waxSym.Code)); !errors.Is(err, antelope.ErrRowNotFound) {
		t.Errorf("before: %v", err)
	}
	if got, err := accounts.Get(t.Context(), c.State().At(res.BlockNum), bob, uint64(waxSym.Code)); err != nil || got.Balance != wax(7) {
		t.Errorf("after, at block %d: %v %v", res.BlockNum, got, err)
	}
	// Rows with their payers, and the table's scopes.
	for row, err := range accounts.RowsWithPayer(t.Context(), cl, bob) {
		if err != nil || row.Payer != alice {
			t.Errorf("bob's row paid by %s, %v", row.Payer, err)
		}
	}
	var scopes []antelope.Name
	for s, err := range accounts.Scopes(t.Context(), cl) {
		if err != nil {
			t.Fatal(err)
		}
		scopes = append(scopes, s)
	}
	if len(scopes) != 2 {
		t.Errorf("scopes %v", scopes)
	}
	stat, err := eosiotoken.TableStat.Get(t.Context(), cl, antelope.Name(waxSym.Code), uint64(waxSym.Code))
	if err != nil || stat.Issuer != alice || stat.Supply != wax(1000_00000000) {
		t.Errorf("stat: %+v, %v", stat, err)
	}
}

// atomicassets' offers table through its secondary index on the sender.
func TestSecondaryIndexAtomicAssets(t *testing.T) {
	c := chaintest.New()
	t.Cleanup(c.Close)
	aa := antelope.MustName("atomicassets")
	if err := c.SetContract(aa, atomicassets.ABIJSON, nil); err != nil {
		t.Fatal(err)
	}
	senders := []antelope.Name{antelope.MustName("carol"), alice, bob}
	for i := range 30 {
		o := atomicassets.OffersS{OfferID: uint64(100 + i), Sender: senders[i%3], Recipient: senders[(i+1)%3],
			SenderAssetIDs: []uint64{uint64(i)}, RecipientAssetIDs: []uint64{}, Memo: "offer", RAMPayer: senders[i%3]}
		data, err := o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		c.SetTableRow(aa, aa, antelope.MustName("offers"), o.OfferID, data, o.RAMPayer,
			antelope.KeyName(o.Sender), antelope.KeyName(o.Recipient))
	}
	offers := atomicassets.Contract{Account: aa}.TableOffers()
	var ids []uint64
	for o, err := range offers.Rows(t.Context(), c.Client(), aa,
		antelope.IndexRange(2, antelope.IndexI64, antelope.KeyName(bob), antelope.KeyName(bob)), antelope.PageSize(3)) {
		if err != nil {
			t.Fatal(err)
		}
		if o.Sender != bob {
			t.Errorf("offer %d is from %s", o.OfferID, o.Sender)
		}
		ids = append(ids, o.OfferID)
	}
	if len(ids) != 10 || ids[0] != 102 || ids[9] != 129 {
		t.Errorf("bob's offers: %v", ids)
	}
	// Without the account the table cannot be read, and says why.
	for _, err := range atomicassets.TableOffers.Rows(t.Context(), c.Client(), aa) {
		if err == nil {
			t.Error("a table with no account was read")
		}
	}
}

// orngwax is a Go orng.wax: requestrand records a job in jobs.a.
func orngwax(ctx *chaintest.Context) error {
	if ctx.Action.Name != randcontract.ActionRequestrand {
		return nil
	}
	var req randcontract.Requestrand
	if err := ctx.Decode(&req); err != nil {
		return err
	}
	if err := ctx.RequireAuth(req.Caller); err != nil {
		return err
	}
	jobs := antelope.MustName("jobs.a")
	next := uint64(0)
	if keys := ctx.Rows(ctx.Receiver, jobs); len(keys) > 0 {
		next = keys[len(keys)-1] + 1
	}
	job := randcontract.JobsA{ID: next, AssocID: req.AssocID, SigningValue: req.SigningValue, Caller: req.Caller}
	return ctx.SetValue(ctx.Receiver, jobs, next, &job, req.Caller)
}

func TestRandcontract(t *testing.T) {
	c := chaintest.New()
	t.Cleanup(c.Close)
	game := antelope.MustName("mygamedapp")
	key := c.NewAccount(game)
	if err := c.SetContract(randcontract.DefaultAccount, randcontract.ABIJSON, orngwax); err != nil {
		t.Fatal(err)
	}
	cl := c.Client()
	for i := range 3 {
		act, err := randcontract.Default.Requestrand(randcontract.Requestrand{AssocID: uint64(40 + i), SigningValue: 0x1122334455667788, Caller: game},
			antelope.Active(game))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cl.Transact(t.Context(), key, act); err != nil {
			t.Fatal(err)
		}
	}
	job, err := randcontract.TableJobsA.Get(t.Context(), cl, randcontract.DefaultAccount, 2)
	if err != nil || job.AssocID != 42 || job.Caller != game {
		t.Fatalf("job 2: %+v, %v", job, err)
	}
	n := 0
	for job, err := range randcontract.TableJobsA.Rows(t.Context(), cl, randcontract.DefaultAccount, antelope.Reverse(), antelope.Limit(2)) {
		if err != nil || job.ID != uint64(2-n) {
			t.Errorf("reverse: %+v, %v", job, err)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d jobs with Limit(2)", n)
	}
}

// tablekeys: typed ranges over secondary indexes from key_names/key_types,
// and a typed action result.
func TestTypedIndexesAndResults(t *testing.T) {
	c := chaintest.New()
	t.Cleanup(c.Close)
	exch := antelope.MustName("exchange")
	key := c.NewAccount(alice)
	orders := antelope.MustName("orders")
	err := c.SetContract(exch, tablekeys.ABIJSON, func(ctx *chaintest.Context) error {
		if ctx.Action.Name != tablekeys.ActionPlace {
			return nil
		}
		var p tablekeys.Place
		if err := ctx.Decode(&p); err != nil {
			return err
		}
		id := uint64(len(ctx.Rows(ctx.Receiver, orders)))
		o := tablekeys.Order{ID: id, Owner: p.Owner, Price: p.Price, Hash: antelope.Checksum256{byte(id)},
			Ref: antelope.Checksum160{byte(id)}, Volume: antelope.Uint128{Lo: id * 10}}
		if err := ctx.SetValue(ctx.Receiver, orders, id, &o, p.Owner, antelope.KeyName(o.Owner), antelope.KeyFloat64(o.Price),
			antelope.KeySHA256(o.Hash), antelope.KeyRipemd160(o.Ref), antelope.KeyUint128(o.Volume)); err != nil {
			return err
		}
		return ctx.Return(&tablekeys.Placed{ID: id, Queue: uint32(id + 1)})
	})
	if err != nil {
		t.Fatal(err)
	}
	cl := c.Client()
	x := tablekeys.Contract{Account: exch}
	for i, price := range []float64{2.5, -1, 10, 0.125} {
		act, _ := x.Place(tablekeys.Place{Owner: alice, Price: price}, antelope.Active(alice))
		res, err := cl.Transact(t.Context(), key, act)
		if err != nil {
			t.Fatal(err)
		}
		placed, err := x.PlaceResult(res)
		if err != nil || placed.ID != uint64(i) || placed.Queue != uint32(i+1) {
			t.Errorf("result %d: %+v, %v", i, placed, err)
		}
		c.Produce()
	}
	var prices []float64
	for o, err := range x.TableOrders().Rows(t.Context(), cl, exch, tablekeys.OrdersByPrice(0, 100)) {
		if err != nil {
			t.Fatal(err)
		}
		prices = append(prices, o.Price)
	}
	if len(prices) != 3 || prices[0] != 0.125 || prices[2] != 10 {
		t.Errorf("orders by price in [0, 100]: %v", prices)
	}
	for _, opt := range []antelope.QueryOption{
		tablekeys.OrdersByOwner(alice, alice), tablekeys.OrdersByHash(antelope.Checksum256{1}, antelope.Checksum256{2}),
		tablekeys.OrdersByRef(antelope.Checksum160{1}, antelope.Checksum160{2}), tablekeys.OrdersByVolume(antelope.Uint128{Lo: 10}, antelope.Uint128{Lo: 20}),
	} {
		n := 0
		for _, err := range x.TableOrders().Rows(t.Context(), cl, exch, opt) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n == 0 {
			t.Error("a typed index range found nothing")
		}
	}
	// A result the transaction does not have.
	act, _ := x.Place(tablekeys.Place{Owner: alice, Price: 1}, antelope.Active(alice))
	res, _ := cl.Transact(t.Context(), key, act)
	if _, err := x.CancelResult(res); err == nil {
		t.Error("a missing result decoded")
	}
}

// GetRow reads a row of the handler's own table as the generated row type:
// absent, present with its payer, and a row of other bytes failing the
// transaction with the table named.
func TestGetRow(t *testing.T) {
	game, jobs := antelope.MustName("mygamedapp"), antelope.MustName("jobs.a")
	c, key := contractChain(t, randcontract.DefaultAccount, randcontract.ABIJSON, func(ctx *chaintest.Context) error {
		var req randcontract.Requestrand
		if err := ctx.Decode(&req); err != nil {
			return err
		}
		job, payer, found, err := chaintest.GetRow(ctx, randcontract.TableJobsA, ctx.Receiver, req.AssocID)
		if err != nil {
			return err
		}
		if err := ctx.Assert(!found, "job "+strconv.FormatUint(job.ID, 10)+" of "+job.Caller.String()+" paid by "+payer.String()+" exists"); err != nil {
			return err
		}
		return ctx.SetValue(ctx.Receiver, jobs, req.AssocID, &randcontract.JobsA{ID: req.AssocID, Caller: req.Caller}, req.Caller)
	}, game)
	cl := c.Client()
	send := func(assoc uint64) error {
		act, _ := randcontract.Default.Requestrand(randcontract.Requestrand{AssocID: assoc, Caller: game}, antelope.Active(game))
		_, err := cl.Transact(t.Context(), key, act)
		return err
	}
	if err := send(7); err != nil {
		t.Fatal(err)
	}
	if msg, _ := chain.AssertMessage(send(7)); msg != "job 7 of mygamedapp paid by mygamedapp exists" {
		t.Errorf("the second send: %q", msg)
	}
	c.SetTableRow(randcontract.DefaultAccount, randcontract.DefaultAccount, jobs, 8, []byte{1, 2, 3}, game)
	var ae *chain.APIError
	if err := send(8); !errors.As(err, &ae) || !strings.Contains(ae.Error(), "table jobs.a row 8 in scope orng.wax") {
		t.Errorf("a row that does not decode: %v", err)
	}
}
