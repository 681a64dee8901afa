package powerup

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"iter"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// rows is a TableReader serving fixed rows per table, in order.
type rows map[antelope.Name][][]byte

func (r rows) TableRows(_ context.Context, q antelope.TableQuery) iter.Seq2[antelope.TableRow, error] {
	return func(yield func(antelope.TableRow, error) bool) {
		for i, b := range r[q.Table] {
			if q.Limit > 0 && i >= q.Limit {
				return
			}
			if !yield(antelope.TableRow{Data: b, Payer: nameEosio}, nil) {
				return
			}
		}
	}
}

// eosState is the recorded EOS mainnet powup.state row (get_table_rows,
// json:false).
func eosState(t *testing.T) []byte {
	t.Helper()
	var rec struct {
		JSON struct {
			Rows []string `json:"rows"`
		} `json:"json"`
	}
	b, err := os.ReadFile("testdata/powup.state.eos.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	row, err := hex.DecodeString(rec.JSON.Rows[0])
	if err != nil {
		t.Fatal(err)
	}
	return row
}

func TestReadAndPlanOnEOS(t *testing.T) {
	ctx := context.Background()
	m, err := Read(ctx, rows{nameState: {eosState(t)}})
	if err != nil {
		t.Fatal(err)
	}
	s := m.State
	if s.PowerupDays != 1 || s.MinPowerupFee.String() != "0.0001 EOS" || s.CPU.Exponent != 2 || s.CPU.Weight != 381816116585640 {
		t.Fatalf("state %+v", s)
	}
	// teamgreymass-like sample: 1 ms per 10 EOS staked, roughly.
	sample, err := SampleAccount(35868, 1_000_000, 200_000, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(int64(s.CPU.UtilizationTimestamp), 0).Add(time.Hour)
	plan, err := m.Plan(now, sample, 10_000, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Fee.Amount != plan.CPUFee+plan.NETFee || plan.CPUFee <= 0 || plan.NETFee <= 0 || plan.Days != 1 {
		t.Errorf("plan %+v", plan)
	}
	payer, _ := antelope.ParseName("alice")
	act, err := plan.Action(payer, payer, plan.MaxPayment(500))
	if err != nil {
		t.Fatal(err)
	}
	want := Powerup{Payer: payer, Receiver: payer, Days: 1, NETFrac: plan.NETFrac, CPUFrac: plan.CPUFrac, MaxPayment: plan.MaxPayment(500)}
	data, _ := want.MarshalBinary()
	if act.Account != nameEosio || act.Name != namePowerup || hex.EncodeToString(act.Data) != hex.EncodeToString(data) ||
		len(act.Authorization) != 1 || act.Authorization[0].Actor != payer {
		t.Errorf("action %+v", act)
	}
	if len(data) != 8+8+4+8+8+16 {
		t.Errorf("powerup data is %d bytes", len(data))
	}
	if mp := plan.MaxPayment(500); mp.Amount < plan.Fee.Amount*105/100 || mp.Amount > plan.Fee.Amount*105/100+1 {
		t.Errorf("max payment %v for fee %v", mp, plan.Fee)
	}
	if _, err := plan.Action(payer, payer, antelope.Asset{Amount: plan.Fee.Amount - 1, Symbol: plan.Fee.Symbol}); err == nil {
		t.Error("a max_payment below the fee was accepted")
	}
	// Any positive rental costs at least one unit (the fee is rounded up);
	// a total below min_powerup_fee is refused, by the contract and here.
	if p, err := m.Plan(now, sample, 1, 0); err != nil || p.Fee.Amount != 1 {
		t.Errorf("1 µs: %+v, %v", p, err)
	}
	high := *m
	high.State.MinPowerupFee.Amount = 1_000_000
	if _, err := high.Plan(now, sample, 1, 0); !errors.Is(err, ErrFeeBelowMinimum) {
		t.Errorf("below min_powerup_fee: %v", err)
	}
	// More than the market has.
	if _, err := m.Quote(now, 0, Frac); err == nil || !strings.Contains(err.Error(), "enough resources") {
		t.Errorf("100%% of CPU: %v", err)
	}
}

// The adjusted utilization decays towards the utilization, so the same
// rental costs less later: what @wharfkit/resources misses.
func TestFeeDecays(t *testing.T) {
	m := Market{}
	if err := m.State.UnmarshalBinary(eosState(t)); err != nil {
		t.Fatal(err)
	}
	m.State.CPU.AdjustedUtilization = m.State.CPU.Weight / 2 // a burst
	start := time.Unix(int64(m.State.CPU.UtilizationTimestamp), 0)
	var last int64 = 1 << 62
	for _, after := range []time.Duration{0, time.Hour, 24 * time.Hour, 7 * 24 * time.Hour} {
		p, err := m.Quote(start.Add(after), 0, Frac/1000)
		if err != nil {
			t.Fatal(err)
		}
		if p.CPUFee >= last {
			t.Errorf("after %v the fee is %d, not below %d", after, p.CPUFee, last)
		}
		last = p.CPUFee
	}
}

// Expired orders return their weight before the new rental is priced: at
// most two, as the action processes.
func TestExpiredOrders(t *testing.T) {
	m := Market{}
	if err := m.State.UnmarshalBinary(eosState(t)); err != nil {
		t.Fatal(err)
	}
	now := time.Unix(int64(m.State.CPU.UtilizationTimestamp)+10, 0)
	exp := antelope.TimePointSec(uint32(now.Unix()) - 1)
	m.Expiring = []Order{{CPUWeight: 1000, NETWeight: 10, Expires: exp}, {CPUWeight: 2000, Expires: exp}, {CPUWeight: 4000, Expires: exp}}
	s := m.At(now)
	base := Market{State: m.State}
	b := base.At(now)
	if b.CPU.Utilization-s.CPU.Utilization != 3000 || b.NET.Utilization-s.NET.Utilization != 10 {
		t.Errorf("returned %d CPU, %d NET", b.CPU.Utilization-s.CPU.Utilization, b.NET.Utilization-s.NET.Utilization)
	}
	m.Expiring[0].Expires = antelope.TimePointSec(now.Unix() + 1)
	if s := m.At(now); s.CPU.Utilization != b.CPU.Utilization {
		t.Error("an order not yet expired was returned")
	}
}

func TestReadNoPowerUp(t *testing.T) {
	if _, err := Read(context.Background(), rows{}); !errors.Is(err, ErrNoPowerUp) {
		t.Errorf("WAX-like chain: %v", err)
	}
	if _, err := Read(context.Background(), rows{nameState: {{1, 2, 3}}}); err == nil {
		t.Error("a short row decoded")
	}
}
