package chaintest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

func aliceTransfer(t *testing.T, amount int64) antelope.Action {
	t.Helper()
	act, err := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(amount), Memo: "r"}, antelope.Active(alice))
	if err != nil {
		t.Fatal(err)
	}
	return act
}

func TestResourcesBillTheFirstAuthorizer(t *testing.T) {
	c, keys := tokenChain(t)
	cl := c.Client()
	ctx := t.Context()
	if r, _ := c.Resources(alice); r.CPULimit != -1 || r.NETLimit != -1 || r.CPUUsed != 100 || r.NETUsed == 0 {
		t.Errorf("alice before any limit: %+v (she issued tokens: billed, unlimited)", r)
	}
	acct, err := cl.GetAccount(ctx, bob)
	if err != nil {
		t.Fatal(err)
	}
	if acct.CPULimit != (chain.ResourceLimit{Used: -1, Available: -1, Max: -1}) || acct.CPUWeight != -1 || acct.NETWeight != -1 {
		t.Errorf("an unlimited account: %+v weight %d", acct.CPULimit, acct.CPUWeight)
	}

	// 250 µs and 1,000 bytes: two transfers' CPU, then none.
	if err := c.SetResources(alice, 250, 1_000); err != nil {
		t.Fatal(err)
	}
	var net int64
	for i := range 2 {
		res, err := cl.Transact(ctx, keys[alice], aliceTransfer(t, 1))
		if err != nil {
			t.Fatal(err)
		}
		var trace struct {
			Receipt struct {
				CPU      int64 `json:"cpu_usage_us"`
				NetWords int64 `json:"net_usage_words"`
			} `json:"receipt"`
			NetUsage int64 `json:"net_usage"`
		}
		if err := json.Unmarshal(res.Processed, &trace); err != nil {
			t.Fatal(err)
		}
		net += trace.NetUsage
		if trace.Receipt.CPU != 100 || trace.Receipt.NetWords*8 != trace.NetUsage || trace.NetUsage == 0 {
			t.Errorf("transfer %d: receipt %+v", i, trace)
		}
		if r, _ := c.Resources(alice); r.CPUUsed != int64(100*(i+1)) || r.NETUsed != net {
			t.Errorf("transfer %d: %+v", i, r)
		}
	}
	acct, err = cl.GetAccount(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if acct.CPULimit != (chain.ResourceLimit{Used: 200, Available: 50, Max: 250}) || acct.CPUWeight != 250 ||
		acct.NETLimit != (chain.ResourceLimit{Used: chain.JSONInt64(net), Available: chain.JSONInt64(1_000 - net), Max: 1_000}) || acct.NETWeight != 1_000 {
		t.Errorf("get_account: cpu %+v/%d, net %+v/%d", acct.CPULimit, acct.CPUWeight, acct.NETLimit, acct.NETWeight)
	}
	before := balance(t, cl, bob)
	_, err = cl.Transact(ctx, keys[alice], aliceTransfer(t, 1))
	var ae *chain.APIError
	if !errors.Is(err, chain.ErrCPU) || !errors.As(err, &ae) || ae.Name != "tx_cpu_usage_exceeded" ||
		ae.Details[0].Message != "billed CPU time (100 us) is greater than the maximum billable CPU time for the transaction (50 us) reached account cpu limit 50us" {
		t.Fatalf("%v", err)
	}
	if balance(t, cl, bob) != before {
		t.Error("the refused transfer was executed")
	}
	if r, _ := c.Resources(alice); r.CPUUsed != 200 || r.NETUsed != net {
		t.Errorf("a refused transaction billed: %+v", r)
	}

	// A failed transaction bills nothing either; a dry run checks but
	// does not bill.
	if err := c.SetResources(alice, 1_000, 1_000); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Transact(ctx, keys[alice], aliceTransfer(t, 1<<50)); !errors.Is(err, chain.ErrAssert) {
		t.Fatalf("%v", err)
	}
	if _, err := cl.ComputeTransaction(ctx, keys[alice], aliceTransfer(t, 1)); err != nil {
		t.Fatal(err)
	}
	if r, _ := c.Resources(alice); r.CPUUsed != 0 || r.NETUsed != 0 {
		t.Errorf("billed %+v", r)
	}
	if err := c.SetResources(alice, 0, 1_000); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.ComputeTransaction(ctx, keys[alice], aliceTransfer(t, 1)); !errors.Is(err, chain.ErrCPU) {
		t.Errorf("a dry run without CPU: %v", err)
	}

	// NET is checked first, before anything runs.
	if err := c.SetResources(alice, 0, 10); err != nil {
		t.Fatal(err)
	}
	_, err = cl.Transact(ctx, keys[alice], aliceTransfer(t, 1))
	if !errors.Is(err, chain.ErrNET) || !errors.As(err, &ae) || ae.Name != "tx_net_usage_exceeded" {
		t.Errorf("%v", err)
	}

	// Unlimited again; bad arguments.
	if err := c.SetResources(alice, -1, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Transact(ctx, keys[alice], aliceTransfer(t, 1)); err != nil {
		t.Error(err)
	}
	if c.SetResources(antelope.MustName("nobody"), 1, 1) == nil || c.SetResources(alice, -2, 1) == nil {
		t.Error("SetResources accepted an unknown account or a negative allowance")
	}
	if _, err := c.Resources(antelope.MustName("nobody")); err == nil {
		t.Error("Resources of an unknown account")
	}
}

// Rollback and Fork keep each account's CPU and NET as of the block they
// go back to: a transaction a rollback dropped is no longer billed, and
// one a fork replays is billed once.
func TestRollbackRestoresUsage(t *testing.T) {
	for _, first := range startBlocks {
		t.Run(fmt.Sprint(first), func(t *testing.T) {
			s := newShipTester(t, "go", chaintest.WithStartBlock(first), chaintest.WithManualFinality(), chaintest.WithoutNetwork())
			if err := s.c.SetResources(alice, 10_000, 100_000); err != nil {
				t.Fatal(err)
			}
			n := s.transfer(alice, bob, 1)
			atN := resources(t, s.c, alice)
			s.transfer(alice, bob, 2)
			s.transfer(alice, bob, 3)
			if got := resources(t, s.c, alice); got.CPUUsed != atN.CPUUsed+200 {
				t.Fatalf("alice used %+v after two more transfers, %+v before", got, atN)
			}
			if err := s.c.Fork(n); err != nil {
				t.Fatal(err)
			}
			if got := resources(t, s.c, alice); got.CPUUsed != atN.CPUUsed+200 {
				t.Errorf("after a fork that replays the two transfers: %+v, want %d µs used", got, atN.CPUUsed+200)
			}
			if err := s.c.Rollback(n); err != nil {
				t.Fatal(err)
			}
			s.rolledBack(n)
			if got := resources(t, s.c, alice); got != atN {
				t.Errorf("after the rollback to %d: %+v, want %+v", n, got, atN)
			}
			acct, err := s.cl.GetAccount(t.Context(), alice)
			if err != nil || int64(acct.CPULimit.Used) != atN.CPUUsed || int64(acct.NETLimit.Used) != atN.NETUsed {
				t.Errorf("get_account after the rollback: cpu %+v net %+v, %v; want %+v", acct.CPULimit, acct.NETLimit, err, atN)
			}
			s.transfer(alice, bob, 4)
			if got := resources(t, s.c, alice); got.CPUUsed != atN.CPUUsed+100 {
				t.Errorf("after one transfer on the new branch: %+v", got)
			}
		})
	}
}

func resources(t *testing.T, c *chaintest.Chain, n antelope.Name) chaintest.Resources {
	t.Helper()
	r, err := c.Resources(n)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
