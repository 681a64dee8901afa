package chain_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/golden/eosio"
	"github.com/antelopego/abigen/powerup"
)

// PowerUp through the client: the market read with TableRows (the
// recorded EOS powup.state, served by chaintest under the real eosio
// ABI), the sample from get_account (Account.PowerUpSample), and the
// action — whose bytes decode with the bindings generated from the eosio
// ABI, field for field. chaintest cannot run the powerup action itself:
// the eosio.system build it has predates PowerUp.
func TestPowerUpThroughTheClient(t *testing.T) {
	p := newPayChain(t)
	ctx := t.Context()
	var rec struct {
		JSON struct {
			Rows []string `json:"rows"`
		} `json:"json"`
	}
	data, err := os.ReadFile("../powerup/testdata/powup.state.eos.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	row, err := hex.DecodeString(rec.JSON.Rows[0])
	if err != nil {
		t.Fatal(err)
	}
	system := antelope.MustName("eosio")
	if err := p.node.SetContract(system, eosio.ABIJSON, nil); err != nil {
		t.Fatal(err)
	}
	p.node.SetTableRow(system, 0, antelope.MustName("powup.state"), 0, row, system)
	p.node.Produce()
	market, err := powerup.Read(ctx, p.c)
	if err != nil {
		t.Fatal(err)
	}

	// A sample account: 1 µs of CPU and 1 byte of NET per unit of weight.
	if err := p.node.SetResources(dapp, 1_000_000, 1_000_000); err != nil {
		t.Fatal(err)
	}
	acct, err := p.c.GetAccount(ctx, dapp)
	if err != nil {
		t.Fatal(err)
	}
	sample, err := acct.PowerUpSample()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(int64(market.State.CPU.UtilizationTimestamp), 0).Add(time.Hour)
	plan, err := market.Plan(now, sample, 5_000, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	act, err := plan.Action(alice, alice, plan.MaxPayment(500))
	if err != nil {
		t.Fatal(err)
	}
	var got eosio.Powerup
	if err := got.UnmarshalBinary(act.Data); err != nil {
		t.Fatal(err)
	}
	want := eosio.Powerup{Payer: alice, Receiver: alice, Days: market.State.PowerupDays, NetFrac: plan.NETFrac, CPUFrac: plan.CPUFrac, MaxPayment: plan.MaxPayment(500)}
	if got != want || act.Account != system || act.Name != antelope.MustName("powerup") || act.Authorization[0] != antelope.Active(alice) {
		t.Errorf("powerup %+v, want %+v", got, want)
	}
	again, _ := got.MarshalBinary()
	if !bytes.Equal(again, act.Data) || plan.CPUFrac <= 0 || plan.NETFrac <= 0 {
		t.Errorf("re-encoded %x, built %x (fractions %d, %d)", again, act.Data, plan.CPUFrac, plan.NETFrac)
	}
}
