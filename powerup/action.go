package powerup

import (
	"errors"
	"math/big"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// Powerup is the data of eosio::powerup: payer rents netFrac and cpuFrac of
// the markets for receiver, for days, paying at most MaxPayment.
type Powerup struct {
	Payer      antelope.Name  // pays the fee; the action is authorized by payer@active
	Receiver   antelope.Name  // gets the CPU and NET
	Days       uint32         // must equal the state's powerup_days
	NETFrac    int64          // the share of the NET market, of Frac
	CPUFrac    int64          // the share of the CPU market, of Frac
	MaxPayment antelope.Asset // the most the payer pays; the action fails if the fee is more
}

// AppendBinary appends the action data.
func (p *Powerup) AppendBinary(b []byte) ([]byte, error) {
	b = antelope.AppendUint64(b, uint64(p.Payer))
	b = antelope.AppendUint64(b, uint64(p.Receiver))
	b = antelope.AppendUint32(b, p.Days)
	b = antelope.AppendInt64(b, p.NETFrac)
	b = antelope.AppendInt64(b, p.CPUFrac)
	return p.MaxPayment.AppendBinary(b)
}

// MarshalBinary returns the action data.
func (p *Powerup) MarshalBinary() ([]byte, error) { return p.AppendBinary(nil) }

// Action returns the eosio::powerup action, authorized by payer@active.
func (p *Powerup) Action() (antelope.Action, error) {
	return antelope.NewAction(nameEosio, namePowerup, p, []antelope.PermissionLevel{{Actor: p.Payer, Permission: nameActive}})
}

// Plan is a powerup worked out: the fractions for the resources wanted
// (as wharfkit computes them) and their price (as the contract does).
type Plan struct {
	Price
	CPU int64 // the µs of CPU asked for
	NET int64 // the bytes of NET asked for
}

// Plan works out the powerup renting cpuUS microseconds of CPU and
// netBytes bytes of NET (either may be 0) at now: the fractions from the
// sample, then the contract's fee for them. It fails as the contract would
// (ErrFeeBelowMinimum when the fee is under one token unit for a resource
// or under min_powerup_fee in all: ask for more).
func (m *Market) Plan(now time.Time, sample Sample, cpuUS, netBytes int64) (*Plan, error) {
	cpuFrac, err := m.State.CPUFrac(sample, cpuUS)
	if err != nil {
		return nil, err
	}
	netFrac, err := m.State.NETFrac(sample, netBytes)
	if err != nil {
		return nil, err
	}
	if cpuFrac == 0 && netFrac == 0 {
		return nil, errors.New("powerup: nothing to rent (no CPU or NET asked for)")
	}
	price, err := m.Quote(now, netFrac, cpuFrac)
	if err != nil {
		return nil, err
	}
	return &Plan{Price: *price, CPU: cpuUS, NET: netBytes}, nil
}

// MaxPayment returns the fee raised by marginBasisPoints ten-thousandths
// (100: 1%), rounded up to a token unit: room for the price to move
// between the quote and the action's execution (other rentals raise the
// utilization; time lowers it).
func (p *Plan) MaxPayment(marginBasisPoints int64) antelope.Asset {
	a := new(big.Int).Mul(big.NewInt(p.Fee.Amount), big.NewInt(10_000+marginBasisPoints))
	a.Add(a, big.NewInt(9_999))
	a.Quo(a, big.NewInt(10_000))
	return antelope.Asset{Amount: a.Int64(), Symbol: p.Fee.Symbol}
}

// Action returns the powerup action for payer and receiver, paying at most
// maxPayment, which must cover the fee and be in the fee's token.
func (p *Plan) Action(payer, receiver antelope.Name, maxPayment antelope.Asset) (antelope.Action, error) {
	if maxPayment.Symbol != p.Fee.Symbol {
		return antelope.Action{}, errors.New("powerup: max_payment " + maxPayment.String() + " is not in the fee's token " + p.Fee.String())
	}
	if maxPayment.Amount < p.Fee.Amount {
		return antelope.Action{}, errors.New("powerup: max_payment " + maxPayment.String() + " is less than the fee " + p.Fee.String())
	}
	data := Powerup{Payer: payer, Receiver: receiver, Days: p.Days, NETFrac: p.NETFrac, CPUFrac: p.CPUFrac, MaxPayment: maxPayment}
	return data.Action()
}
