package powerup

import (
	"errors"
	"math/big"
	"strconv"
)

// From wanted microseconds of CPU and bytes of NET to the fractions the
// action takes, as @wharfkit/resources 1.5.0 computes them (its
// getSampledUsage, us_to_weight/bytes_to_weight and frac_by_us/
// frac_by_bytes), so that a Go program asks for what a wharfkit one would.
//
// A fraction rents that share of the market's weight; what the weight is
// worth in µs or bytes depends on the whole chain's staked weight and usage,
// which nothing on chain states. wharfkit estimates it from a sample
// account: its CPU (NET) limit per unit of its staked weight.

// samplePrecision scales a sample (wharfkit's BNPrecision, 10^8).
const samplePrecision = 100_000_000

// Sample is how much CPU and NET one unit of staked weight gives on the
// chain now, scaled by 10^8: wharfkit's SampleUsage, measured on an account
// with get_account.
type Sample struct {
	CPU *big.Int // µs × 10^8 per unit of weight
	NET *big.Int // bytes × 10^8 per unit of weight
}

// SampleAccount returns the sample measured on an account from its
// get_account answer: cpu_limit.max, cpu_weight, net_limit.max and
// net_weight (wharfkit samples greymassfuel on EOS). It reproduces
// wharfkit's rounding, which is not a ceiling despite its divCeil name:
// floor(max × 10^8 / weight), minus one when the division leaves a
// remainder and the quotient is above 1.
func SampleAccount(cpuLimitMax, cpuWeight, netLimitMax, netWeight int64) (Sample, error) {
	cpu, err := sampleDiv("CPU", cpuLimitMax, cpuWeight)
	if err != nil {
		return Sample{}, err
	}
	net, err := sampleDiv("NET", netLimitMax, netWeight)
	if err != nil {
		return Sample{}, err
	}
	return Sample{CPU: cpu, NET: net}, nil
}

func sampleDiv(what string, limitMax, weight int64) (*big.Int, error) {
	if limitMax <= 0 || weight <= 0 {
		return nil, errors.New("powerup: the sample account's " + what + " limit and weight must be positive (an account with staked " + what + ")")
	}
	num := new(big.Int).Mul(big.NewInt(limitMax), big.NewInt(samplePrecision))
	q, rem := new(big.Int).QuoRem(num, big.NewInt(weight), new(big.Int))
	if rem.Sign() > 0 && q.Cmp(big.NewInt(1)) > 0 {
		q.Sub(q, big.NewInt(1))
	}
	return q, nil
}

// CPUFrac returns the fraction of the CPU market that rents us
// microseconds a day, as wharfkit's frac_by_us computes it.
func (s *State) CPUFrac(sample Sample, us int64) (int64, error) {
	return frac("CPU", sample.CPU, us, s.CPU.Weight)
}

// NETFrac returns the fraction of the NET market that rents bytes a day,
// as wharfkit's frac_by_bytes computes it.
func (s *State) NETFrac(sample Sample, bytes int64) (int64, error) {
	return frac("NET", sample.NET, bytes, s.NET.Weight)
}

// frac is wharfkit's frac_by_us: the weight the amount needs,
// floor(amount × 10^8 / sample), over the market's weight to 15 decimals
// as js-big-decimal's divide rounds it, times 10^15.
func frac(what string, sample *big.Int, amount, marketWeight int64) (int64, error) {
	if amount < 0 {
		return 0, errors.New("powerup: a negative " + what + " amount")
	}
	if amount == 0 {
		return 0, nil
	}
	if sample == nil || sample.Sign() <= 0 {
		return 0, errors.New("powerup: no " + what + " sample (SampleAccount)")
	}
	if marketWeight <= 0 {
		return 0, errors.New("powerup: the " + what + " market has no weight")
	}
	w := new(big.Int).Mul(big.NewInt(amount), big.NewInt(samplePrecision))
	w.Quo(w, sample) // floor: both positive
	if !w.IsInt64() {
		return 0, errors.New("powerup: " + strconv.FormatInt(amount, 10) + " of " + what + " is out of range")
	}
	// js-big-decimal's divide works out precision+2 = 17 decimals,
	// truncating, then rounds that to 15 half to even: a double rounding
	// (…x50 9 rounds as an exact half).
	num := w.Mul(w, big.NewInt(100*Frac))
	q := num.Quo(num, big.NewInt(marketWeight))
	q, tail := q.QuoRem(q, big.NewInt(100), new(big.Int))
	if c := tail.Cmp(big.NewInt(50)); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return 0, errors.New("powerup: " + strconv.FormatInt(amount, 10) + " of " + what + " is more than the market")
	}
	return q.Int64(), nil
}
