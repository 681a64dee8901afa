package exec

import (
	"fmt"

	"github.com/antelopego/abigen/antelope"
)

// CPU and NET, billed as nodeos bills them under ONLY_BILL_FIRST_AUTHORIZER
// (active on every public chain): the whole transaction is billed to the
// first authorizer of its first action, so a payer that puts its own
// action first (a cosigner's noop) pays for the rest. An account's
// allowance is unlimited until SetResources limits it.
//
// nodeos's checks, in its order: NET at the start (the transaction's size
// with nodeos's overheads, transaction_context::init_for_input_trx), CPU
// after the actions ran (validate_cpu_usage_to_bill). Both fail the
// transaction with nodeos's exception and message, and a failed
// transaction bills nothing.

// billedCPU is the CPU chaintest bills a transaction: nodeos's
// min_transaction_cpu_usage. A node bills the time it measured, at least
// this; a fixed figure keeps tests deterministic.
const billedCPU = 100

// nodeos's default net billing parameters (chain_config and config.hpp).
const (
	basePerTransactionNet = 12 // base_per_transaction_net_usage
	packedTrxOverhead     = 16 // fixed_net_overhead_of_packed_trx
	cfDiscountNum         = 20 // context_free_discount_net_usage_num
	cfDiscountDen         = 100
)

// ResourceLimits is an account's CPU and NET allowance and what it used.
type ResourceLimits struct {
	CPULimit, NETLimit int64 // µs and bytes; -1: unlimited
	CPUUsed, NETUsed   int64 // µs and bytes billed since SetResources
}

// FirstAuthorizer is the account a transaction is billed to:
// transaction::first_authorizer, the first authorization of the first
// action that has one.
func FirstAuthorizer(tx *antelope.Transaction) antelope.Name {
	for _, a := range tx.Actions {
		if len(a.Authorization) > 0 {
			return a.Authorization[0].Actor
		}
	}
	return 0
}

// netUsage is the NET nodeos bills a packed transaction: the base per
// transaction, the packed transaction with its fixed overhead, a fifth of
// the signatures and context-free data (rounded up), all rounded up to a
// word (8 bytes).
func netUsage(p *antelope.PackedTransaction) int64 {
	sigs := len(antelope.AppendVarUint32(nil, uint32(len(p.Signatures))))
	for _, s := range p.Signatures {
		b, _ := s.AppendBinary(nil)
		sigs += len(b)
	}
	prunable := int64(sigs + len(p.PackedContextFreeData))
	prunable = (prunable*cfDiscountNum + cfDiscountDen - 1) / cfDiscountDen
	n := basePerTransactionNet + packedTrxOverhead + int64(len(p.PackedTrx)) + prunable
	return (n + 7) / 8 * 8
}

// chargeNET is nodeos's early NET check: the transaction's NET against
// what the billed account has left. It records the usage (undone with the
// transaction if it fails later).
func (t *TrxContext) chargeNET(p *antelope.PackedTransaction) error {
	t.net, t.cpu = netUsage(p), billedCPU
	return t.charge(t.net, func(r *ResourceLimits) (int64, *int64) { return r.NETLimit, &r.NETUsed }, func(left int64) error {
		return errNetUsage(fmt.Sprintf("transaction net usage is too high: %d > %d", t.net, left))
	})
}

// chargeCPU is nodeos's CPU check after execution: the billed CPU against
// what the billed account has left.
func (t *TrxContext) chargeCPU() error {
	return t.charge(t.cpu, func(r *ResourceLimits) (int64, *int64) { return r.CPULimit, &r.CPUUsed }, func(left int64) error {
		return errCPUUsage(fmt.Sprintf("billed CPU time (%d us) is greater than the maximum billable CPU time for the transaction (%d us) reached account cpu limit %dus",
			t.cpu, left, left))
	})
}

// charge bills amount of the resource field selects to the transaction's
// first authorizer, or refuses it when the account has a limit and less
// than that left. A read-only transaction is billed nothing.
func (t *TrxContext) charge(amount int64, field func(*ResourceLimits) (limit int64, used *int64), refuse func(left int64) error) error {
	payer := FirstAuthorizer(&t.Tx.Transaction)
	if t.readOnly || t.c.Account(payer) == nil {
		return nil
	}
	limit, used := field(&t.c.Account(payer).Res)
	if left := max(limit-*used, 0); limit >= 0 && amount > left {
		return refuse(left)
	}
	t.Undo.account(t.c, payer) // the account is copied: bill the copy
	_, used = field(&t.c.Account(payer).Res)
	*used += amount
	return nil
}

// setReceipt writes the billed CPU and NET into a transaction trace's
// receipt, as nodeos reports them; state history and get_block serve the
// same figures (usage).
func (t *TrxContext) setReceipt(trace map[string]any) {
	cpu, net, elapsed := t.Usage()
	trace["receipt"] = map[string]any{"status": "executed", "cpu_usage_us": cpu, "net_usage_words": net}
	trace["net_usage"], trace["elapsed"] = uint64(net)*8, elapsed
}

func errCPUUsage(detail string) *Exception {
	return &Exception{code: 3080004, name: "tx_cpu_usage_exceeded",
		what: "Transaction exceeded the current CPU usage limit imposed on the transaction", detail: detail}
}

func errNetUsage(detail string) *Exception {
	return &Exception{code: 3080002, name: "tx_net_usage_exceeded",
		what: "Transaction exceeded the current network usage limit imposed on the transaction", detail: detail}
}

// Usage is the transaction's receipt's CPU (µs) and NET (8-byte words),
// as billed (resources.go), and its elapsed time (µs): the figures the
// chain API's answer to the transaction reported (setReceipt).
func (t *TrxContext) Usage() (cpuUs, netWords uint32, elapsedUs int64) {
	return uint32(t.cpu), uint32(t.net / 8), t.cpu
}
