package powerup

import (
	"context"

	"github.com/antelopego/abigen/antelope"
)

// The eosio.system tables PowerUp keeps: powup.state (one row, scope 0) and
// powup.order (the rentals not yet expired). Typed here, small and exact,
// rather than through the whole generated eosio.system binding.

var (
	nameEosio   = mustName("eosio")
	nameState   = mustName("powup.state")
	nameOrders  = mustName("powup.order")
	namePowerup = mustName("powerup")
	nameActive  = mustName("active")
)

func mustName(s string) antelope.Name {
	n, err := antelope.ParseName(s)
	if err != nil {
		panic(err) // the names above are constant
	}
	return n
}

// Frac is 100% in the contract's fractions (powerup_frac, 10^15).
const Frac = 1_000_000_000_000_000

// Resource is the market of one resource (powerup_state_resource): how much
// weight it has, how much is rented, and its price curve.
type Resource struct {
	Version uint8 // the row version, 0
	// Weight is the resource's total weight in the market: what 100%
	// (Frac) of it rents.
	Weight             int64
	WeightRatio        int64                 // Frac × the share of the resource still staked (REX → PowerUp transition)
	AssumedStakeWeight int64                 // the stake weight assumed outside the market
	InitialWeightRatio int64                 // WeightRatio at InitialTimestamp
	TargetWeightRatio  int64                 // WeightRatio from TargetTimestamp on
	InitialTimestamp   antelope.TimePointSec // when the weight ratio schedule started
	TargetTimestamp    antelope.TimePointSec // when it reaches TargetWeightRatio
	Exponent           float64               // the price curve's exponent, ≥ 1
	DecaySecs          uint32                // how fast AdjustedUtilization decays to Utilization
	MinPrice           antelope.Asset        // the price of the whole market at 0% utilization
	MaxPrice           antelope.Asset        // the price of the whole market at 100% utilization
	// Utilization is the weight rented now; AdjustedUtilization lags
	// behind it when it falls (it decays exponentially, DecaySecs), so the
	// price falls slowly after a burst.
	Utilization          int64                 // the weight rented now
	AdjustedUtilization  int64                 // the utilization the price follows
	UtilizationTimestamp antelope.TimePointSec // when AdjustedUtilization was last updated
}

// State is the powup.state row.
type State struct {
	Version       uint8          // the row version, 0
	NET           Resource       // the NET market
	CPU           Resource       // the CPU market
	PowerupDays   uint32         // how long a rental lasts; the action's days must equal it
	MinPowerupFee antelope.Asset // the least a powerup may cost in all
}

// Order is a powup.order row: one rental, returned to the market when it
// expires.
type Order struct {
	Version   uint8                 // the row version, 0
	ID        uint64                // the primary key
	Owner     antelope.Name         // the account the resources went to
	NETWeight int64                 // the NET weight rented
	CPUWeight int64                 // the CPU weight rented
	Expires   antelope.TimePointSec // when it returns to the market
}

// DecodeBinary reads the powerup_state_resource struct.
func (r *Resource) DecodeBinary(d *antelope.Decoder) error {
	var v Resource
	var err error
	int64s := func(what string, ps ...*int64) {
		for _, p := range ps {
			if err == nil {
				*p, err = d.Int64()
				err = antelope.AtField(err, what)
			}
		}
	}
	tps := func(ps ...*antelope.TimePointSec) {
		for _, p := range ps {
			if err == nil {
				err = p.DecodeBinary(d)
			}
		}
	}
	if v.Version, err = d.Uint8(); err != nil {
		return err
	}
	int64s("weight", &v.Weight, &v.WeightRatio, &v.AssumedStakeWeight, &v.InitialWeightRatio, &v.TargetWeightRatio)
	tps(&v.InitialTimestamp, &v.TargetTimestamp)
	if err == nil {
		v.Exponent, err = d.Float64()
	}
	if err == nil {
		v.DecaySecs, err = d.Uint32()
	}
	if err == nil {
		err = antelope.AtField(v.MinPrice.DecodeBinary(d), "min_price")
	}
	if err == nil {
		err = antelope.AtField(v.MaxPrice.DecodeBinary(d), "max_price")
	}
	int64s("utilization", &v.Utilization, &v.AdjustedUtilization)
	tps(&v.UtilizationTimestamp)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// DecodeBinary reads the powerup_state struct.
func (s *State) DecodeBinary(d *antelope.Decoder) error {
	var v State
	var err error
	if v.Version, err = d.Uint8(); err != nil {
		return err
	}
	if err := v.NET.DecodeBinary(d); err != nil {
		return antelope.AtField(err, "net")
	}
	if err := v.CPU.DecodeBinary(d); err != nil {
		return antelope.AtField(err, "cpu")
	}
	if v.PowerupDays, err = d.Uint32(); err != nil {
		return antelope.AtField(err, "powerup_days")
	}
	if err := v.MinPowerupFee.DecodeBinary(d); err != nil {
		return antelope.AtField(err, "min_powerup_fee")
	}
	*s = v
	return nil
}

// UnmarshalBinary decodes a powup.state row.
func (s *State) UnmarshalBinary(data []byte) error { return antelope.UnmarshalBinary(data, s) }

// DecodeBinary reads the powerup_order struct.
func (o *Order) DecodeBinary(d *antelope.Decoder) error {
	var v Order
	var err error
	if v.Version, err = d.Uint8(); err != nil {
		return err
	}
	if v.ID, err = d.Uint64(); err != nil {
		return antelope.AtField(err, "id")
	}
	owner, err := d.Uint64()
	if err != nil {
		return antelope.AtField(err, "owner")
	}
	v.Owner = antelope.Name(owner)
	if v.NETWeight, err = d.Int64(); err == nil {
		v.CPUWeight, err = d.Int64()
	}
	if err != nil {
		return antelope.AtField(err, "weight")
	}
	if err := v.Expires.DecodeBinary(d); err != nil {
		return antelope.AtField(err, "expires")
	}
	*o = v
	return nil
}

// Market is what the fee of a powerup depends on: the state, and the first
// rentals by expiry, which the powerup action returns to the market (two
// at most) before it prices the new one.
type Market struct {
	State State // the powup.state row
	// Expiring are the first orders by expiry (Read reads two, the most
	// one powerup action processes).
	Expiring []Order
}

// Read reads the market from the eosio account's powup.state and
// powup.order tables, through any TableReader: a nodeos client, the state
// service at a block, or a test chain.
func Read(ctx context.Context, r antelope.TableReader) (*Market, error) {
	m := new(Market)
	found := false
	for row, err := range r.TableRows(ctx, antelope.TableQuery{Code: nameEosio, Scope: 0, Table: nameState, Limit: 1}) {
		if err != nil {
			return nil, err
		}
		if err := m.State.UnmarshalBinary(row.Data); err != nil {
			return nil, antelope.AtField(err, "powup.state")
		}
		found = true
	}
	if !found {
		return nil, ErrNoPowerUp
	}
	// byexpires is the table's second secondary index (position 3).
	q := antelope.TableQuery{Code: nameEosio, Scope: 0, Table: nameOrders, Index: 3, KeyType: antelope.IndexI64, Limit: 2}
	for row, err := range r.TableRows(ctx, q) {
		if err != nil {
			return nil, err
		}
		var o Order
		if err := antelope.UnmarshalBinary(row.Data, &o); err != nil {
			return nil, antelope.AtField(err, "powup.order")
		}
		m.Expiring = append(m.Expiring, o)
	}
	return m, nil
}
