package powerup

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// The fee as eosio.system computes it (powerup.cpp: process_powerup_queue,
// update_utilization, update_weight, calc_powerup_fee), step for step and
// in the same float64 operations, so that the result is the contract's to
// the token unit. Products are converted to float64 explicitly: Go may
// otherwise fuse a*b+c into one rounding on some CPUs, WebAssembly never.

// ErrNoPowerUp is Read's error on a chain without PowerUp (no powup.state
// row): WAX, for one, rents CPU and NET otherwise.
var ErrNoPowerUp = errors.New("powerup: the chain has no powup.state: PowerUp is not enabled there")

// ErrFeeBelowMinimum reports a powerup the contract would refuse as too
// small: a resource whose fee rounds to zero units, or a total below the
// state's min_powerup_fee. Ask for more.
var ErrFeeBelowMinimum = errors.New("calculated fee is below minimum; try powering up with more resources")

// At returns the market as the powerup action sees it at now, before it
// prices anything: adjusted utilization decayed to now, the expired orders
// among Expiring (two at most) returned, the weight ratio moved along its
// schedule.
func (m *Market) At(now time.Time) State {
	s := m.State
	t := antelope.TimePointSec(uint32(now.Unix()))
	updateUtilization(t, &s.NET)
	updateUtilization(t, &s.CPU)
	var netDelta, cpuDelta int64
	for i, o := range m.Expiring {
		if i == 2 || o.Expires > t {
			break
		}
		netDelta += o.NETWeight
		cpuDelta += o.CPUWeight
	}
	s.NET.Utilization -= netDelta
	s.CPU.Utilization -= cpuDelta
	updateWeight(t, &s.NET)
	updateWeight(t, &s.CPU)
	return s
}

// updateUtilization decays the adjusted utilization towards the
// utilization: update_utilization.
func updateUtilization(now antelope.TimePointSec, r *Resource) {
	if now <= r.UtilizationTimestamp {
		return
	}
	if r.Utilization >= r.AdjustedUtilization {
		r.AdjustedUtilization = r.Utilization
	} else {
		diff := r.AdjustedUtilization - r.Utilization
		decay := math.Exp(-float64(uint32(now)-uint32(r.UtilizationTimestamp)) / float64(r.DecaySecs))
		delta := int64(float64(float64(diff) * decay)) // truncates toward zero, as C++ does
		delta = min(max(delta, 0), diff)
		r.AdjustedUtilization = r.Utilization + delta
	}
	r.UtilizationTimestamp = now
}

// updateWeight moves the weight ratio along its schedule and recomputes
// the weight: update_weight (the delta it returns only matters to the
// reserve account).
func updateWeight(now antelope.TimePointSec, r *Resource) {
	if now >= r.TargetTimestamp {
		r.WeightRatio = r.TargetWeightRatio
	} else {
		span := big.NewInt(int64(r.TargetWeightRatio) - int64(r.InitialWeightRatio))
		span.Mul(span, big.NewInt(int64(uint32(now))-int64(uint32(r.InitialTimestamp))))
		span.Quo(span, big.NewInt(int64(uint32(r.TargetTimestamp))-int64(uint32(r.InitialTimestamp)))) // truncates, as int128 does
		r.WeightRatio = r.InitialWeightRatio + span.Int64()
	}
	if r.WeightRatio == 0 {
		return // the contract would trap; Quote reports the empty market
	}
	w := new(big.Int).Mul(big.NewInt(r.AssumedStakeWeight), big.NewInt(Frac))
	w.Quo(w, big.NewInt(r.WeightRatio))
	r.Weight = w.Int64() - r.AssumedStakeWeight
}

// Fee is calc_powerup_fee: the fee in token units for renting
// utilizationIncrease more weight of r, rounded up. r is the resource as
// the action sees it (Market.At).
func Fee(r *Resource, utilizationIncrease int64) int64 {
	if utilizationIncrease <= 0 {
		return 0
	}
	weight := float64(r.Weight)
	minAmount := float64(r.MinPrice.Amount)
	priceIntegralDelta := func(start, end int64) float64 {
		coefficient := float64(r.MaxPrice.Amount-r.MinPrice.Amount) / r.Exponent
		startU := float64(start) / weight
		endU := float64(end) / weight
		return float64(float64(float64(minAmount*endU)-float64(minAmount*startU))+float64(coefficient*math.Pow(endU, r.Exponent))) -
			float64(coefficient*math.Pow(startU, r.Exponent))
	}
	priceFunction := func(utilization int64) float64 {
		price := minAmount
		newExponent := r.Exponent - 1.0
		if newExponent <= 0.0 {
			return float64(r.MaxPrice.Amount)
		}
		return price + float64(float64(r.MaxPrice.Amount-r.MinPrice.Amount)*math.Pow(float64(utilization)/weight, newExponent))
	}
	fee := 0.0
	start := r.Utilization
	end := start + utilizationIncrease
	if start < r.AdjustedUtilization {
		fee += float64(priceFunction(r.AdjustedUtilization)*float64(min(utilizationIncrease, r.AdjustedUtilization-start))) / weight
		start = r.AdjustedUtilization
	}
	if start < end {
		fee += priceIntegralDelta(start, end)
	}
	return int64(math.Ceil(fee))
}

// Price is what a powerup costs, and what it rents.
type Price struct {
	NETFrac, CPUFrac     int64          // the fractions asked for (of Frac)
	NETWeight, CPUWeight int64          // the weight they rent at that time
	NETFee, CPUFee       int64          // each resource's fee, in token units
	Fee                  antelope.Asset // the total, what max_payment must cover
	Days                 uint32         // the state's powerup_days, the action's days
}

// Quote returns the fee the powerup action charges at now for netFrac and
// cpuFrac (fractions of Frac), as the contract computes it, or the
// contract's reason to refuse: a fraction out of range, a market without
// enough weight left, a fee that rounds to zero for a resource, a total
// below min_powerup_fee (ErrFeeBelowMinimum).
func (m *Market) Quote(now time.Time, netFrac, cpuFrac int64) (*Price, error) {
	for _, f := range []int64{netFrac, cpuFrac} {
		if f < 0 || f > Frac {
			return nil, errors.New("powerup: a fraction must be between 0 and " + strconv.Itoa(Frac) + " (100%), have " + strconv.FormatInt(f, 10))
		}
	}
	s := m.At(now)
	p := &Price{NETFrac: netFrac, CPUFrac: cpuFrac, Days: s.PowerupDays, Fee: antelope.Asset{Symbol: s.MinPowerupFee.Symbol}}
	process := func(what string, frac int64, r *Resource, amount, fee *int64) error {
		if frac == 0 {
			return nil
		}
		a := new(big.Int).Mul(big.NewInt(frac), big.NewInt(r.Weight))
		*amount = a.Quo(a, big.NewInt(Frac)).Int64()
		if r.Weight == 0 {
			return errors.New("powerup: the " + what + " market doesn't have resources available")
		}
		if r.Utilization+*amount > r.Weight {
			return errors.New("powerup: the " + what + " market doesn't have enough resources available")
		}
		*fee = Fee(r, *amount)
		if *fee <= 0 {
			return errors.Join(ErrFeeBelowMinimum, errors.New("powerup: the "+what+" fee rounds to zero units"))
		}
		p.Fee.Amount += *fee
		r.Utilization += *amount
		return nil
	}
	if err := process("NET", netFrac, &s.NET, &p.NETWeight, &p.NETFee); err != nil {
		return nil, err
	}
	if err := process("CPU", cpuFrac, &s.CPU, &p.CPUWeight, &p.CPUFee); err != nil {
		return nil, err
	}
	if p.Fee.Amount < s.MinPowerupFee.Amount {
		return p, errors.Join(ErrFeeBelowMinimum, errors.New("powerup: the fee "+p.Fee.String()+" is below min_powerup_fee "+s.MinPowerupFee.String()))
	}
	return p, nil
}
