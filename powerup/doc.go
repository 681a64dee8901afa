// Package powerup rents CPU and NET through eosio.system's PowerUp market
// (eosio::powerup): it reads the market (powup.state and the expiring
// powup.order rows) through any antelope.TableReader, turns wanted
// microseconds of CPU and bytes of NET into the action's fractions as
// @wharfkit/resources 1.5.0 does, prices them as the contract does, and
// returns the action.
//
//	market, err := powerup.Read(ctx, client)                    // any TableReader
//	sample, err := powerup.SampleAccount(cpuMax, cpuW, netMax, netW) // from get_account
//	plan, err := market.Plan(time.Now(), sample, 5_000, 10_000)  // 5 ms CPU, 10 kB NET
//	act, err := plan.Action(payer, receiver, plan.MaxPayment(500)) // fee + 5%
//
// The fee is the contract's computation (powerup.cpp: update_utilization,
// update_weight, calc_powerup_fee), in the same float64 operations, exact
// to the token unit; @wharfkit/resources' own price is not (docs/powerup.md
// says where and why). A chain without PowerUp (WAX) has no powup.state:
// Read returns ErrNoPowerUp.
//
// The package is pure: Read's I/O goes through the TableReader given.
package powerup
