package exec

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// Executing a transaction as nodeos's transaction_context and
// apply_context do. Each action is scheduled (given its ordinal, in the
// order actions, notifications and inline actions are created) and
// executed depth-first: an action runs at its receiver, then at each
// account it notified, in the order they were notified, sharing one
// apply context (iterators included); then its inline actions, each with
// its own notifications and inline actions before the next, at most
// maxInlineDepth levels deep. Go handlers and wasm run under the same
// rules.

// maxInlineDepth is nodeos's default max_inline_action_depth.
const maxInlineDepth = 4

// maxActionTraces bounds one transaction's actions and notifications.
const maxActionTraces = 10000

// TrxContext is one transaction being executed.
type TrxContext struct {
	c          *Engine
	Tx         *antelope.SignedTransaction // the transaction
	ID         antelope.Checksum256        // its id
	blockNum   uint32
	blockTime  time.Time
	ctx        context.Context // ends at the transaction's deadline
	readOnly   bool            // send_read_only_transaction: no writes
	Traces     []*ActionTrace  // by ordinal-1
	executed   uint64          // receipts so far (global sequence)
	ram        map[antelope.Name]int64
	checkRAMOf map[antelope.Name]bool // quotas changed: check them at the end
	Undo       UndoLog                // what it changed outside the tables, to undo on failure
	cpu, net   int64                  // billed to the first authorizer (resources.go)
	Failure    *Exception             // what failed the transaction, in the failed action's trace
}

// validateRAM has the account's usage checked against its quota at the
// end of the transaction.
func (t *TrxContext) validateRAM(n antelope.Name) {
	if t.checkRAMOf == nil {
		t.checkRAMOf = map[antelope.Name]bool{}
	}
	t.checkRAMOf[n] = true
}

// ActionTrace is one scheduled action at one receiver.
type ActionTrace struct {
	Ordinal, Creator, closestUnnotified uint32                  // action_ordinal, creator_action_ordinal, closest_unnotified_ancestor_action_ordinal
	Receiver                            antelope.Name           // the account whose code runs
	Action                              antelope.Action         // the action
	ContextFree                         bool                    // a context-free action
	Console                             strings.Builder         // its console output (prints)
	ReturnValue                         []byte                  // set_action_return_value's
	RAMDeltas                           map[antelope.Name]int64 // RAM billed (refunded) per account
	Elapsed                             time.Duration           // how long it ran
	GlobalSeq                           uint64                  // its receipt's global_sequence (0: none)
	Seq                                 receiptSeqs             // the rest of the receipt, once committed (receipts.go)
	failed                              bool                    // the action whose exception failed the transaction
}

func (t *TrxContext) schedule(act antelope.Action, receiver antelope.Name, contextFree bool, creator, closest uint32) (uint32, error) {
	if len(t.Traces) >= maxActionTraces {
		return 0, errTransaction("too many actions and notifications in one transaction")
	}
	tr := &ActionTrace{Ordinal: uint32(len(t.Traces) + 1), Creator: creator, closestUnnotified: closest,
		Receiver: receiver, Action: act, ContextFree: contextFree}
	t.Traces = append(t.Traces, tr)
	return tr.Ordinal, nil
}

// run schedules and executes the transaction's actions.
func (t *TrxContext) run() error {
	for _, a := range t.Tx.ContextFreeActions {
		if _, err := t.schedule(a, a.Account, true, 0, 0); err != nil {
			return err
		}
	}
	for _, a := range t.Tx.Actions {
		if _, err := t.schedule(a, a.Account, false, 0, 0); err != nil {
			return err
		}
	}
	for ord := uint32(1); ord <= uint32(len(t.Tx.ContextFreeActions)+len(t.Tx.Actions)); ord++ {
		if err := t.executeAction(ord, 0); err != nil {
			return err
		}
	}
	return t.checkRAM()
}

func (t *TrxContext) executeAction(ordinal uint32, depth int) error {
	tr := t.Traces[ordinal-1]
	a := &applyContext{trx: t, ordinal: ordinal, firstReceiverOrdinal: ordinal, depth: depth, receiver: tr.Receiver}
	return a.exec()
}

// addRAM bills delta bytes to account, for the action at ordinal.
func (t *TrxContext) addRAM(tr *ActionTrace, account antelope.Name, delta int64) {
	if delta == 0 {
		return
	}
	if tr.RAMDeltas == nil {
		tr.RAMDeltas = map[antelope.Name]int64{}
	}
	tr.RAMDeltas[account] += delta
	if t.ram == nil {
		t.ram = map[antelope.Name]int64{}
	}
	t.ram[account] += delta
}

// checkRAM applies the transaction's RAM deltas to the accounts, refusing
// the transaction when an account with a quota (set_resource_limits) goes
// over it.
func (t *TrxContext) checkRAM() error {
	names := make([]antelope.Name, 0, len(t.ram))
	for n := range t.ram {
		names = append(names, n)
	}
	for n := range t.checkRAMOf {
		if _, ok := t.ram[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		if t.c.Account(n) == nil {
			continue
		}
		t.Undo.account(t.c, n)
		acct := t.c.Account(n)
		acct.RAMUsage += t.ram[n]
		if (t.ram[n] > 0 || t.checkRAMOf[n]) && acct.RAMQuota >= 0 && acct.RAMUsage > acct.RAMQuota {
			return errRAM(fmt.Sprintf("account %s has insufficient ram; needs %d bytes has %d bytes", n, acct.RAMUsage, acct.RAMQuota))
		}
	}
	return nil
}

// applyContext is one action at its receiver and its notified accounts.
type applyContext struct {
	trx                  *TrxContext
	receiver             antelope.Name
	ordinal              uint32 // the trace of the current receiver
	firstReceiverOrdinal uint32
	depth                int
	privileged           bool
	notified             []notice
	inline, cfInline     []uint32
	keyval               iterCache
	idx                  [5]iterCache
	err                  error // a Go handler's failure it could not return (RequireRecipient, Delete)
}

type notice struct {
	receiver antelope.Name
	ordinal  uint32
}

func (a *applyContext) trace() *ActionTrace { return a.trx.Traces[a.ordinal-1] }

// act is the action being executed.
func (a *applyContext) act() *antelope.Action { return &a.trx.Traces[a.ordinal-1].Action }

func (a *applyContext) exec() error {
	a.notified = append(a.notified, notice{a.receiver, a.ordinal})
	for i := 0; i < len(a.notified); i++ {
		a.receiver, a.ordinal = a.notified[i].receiver, a.notified[i].ordinal
		if err := a.execOne(); err != nil {
			// nodeos's apply_context::exec_one puts the exception in this
			// trace, and the return value only in a completed action's.
			tr := a.trace()
			tr.failed, tr.ReturnValue = true, nil
			return err
		}
	}
	if len(a.inline)+len(a.cfInline) > 0 && a.depth >= maxInlineDepth {
		return errTransaction("max inline action depth per transaction reached")
	}
	for _, ord := range a.cfInline {
		if err := a.trx.executeAction(ord, a.depth+1); err != nil {
			return err
		}
	}
	for _, ord := range a.inline {
		if err := a.trx.executeAction(ord, a.depth+1); err != nil {
			return err
		}
	}
	return nil
}

// execOne runs the current receiver's code: eosio's native actions, then
// the contract (Go handler or wasm), then nodeos's RAM restrictions.
func (a *applyContext) execOne() error {
	start := time.Now()
	c := a.trx.c
	tr := a.trace()
	acct := c.Account(a.receiver)
	if acct == nil {
		return errTransaction("action's receiving account " + a.receiver.String() + " does not exist")
	}
	a.privileged = acct.Privileged
	act := a.act()
	if a.receiver == NameEosio && act.Account == NameEosio {
		if native := nativeHandlers[act.Name]; native != nil {
			if err := native(a); err != nil {
				return err
			}
		}
	}
	if ct := c.Contract(a.receiver); ct != nil {
		var err error
		switch {
		case ct.Module != nil:
			err = ct.Module.Run(a.trx.ctx, a, wasm.Action{Receiver: uint64(a.receiver), Code: uint64(act.Account),
				Name: uint64(act.Name), Data: act.Data})
			var ex *wasm.Exception
			if errors.As(err, &ex) {
				err = &Exception{code: ex.Code, name: ex.Name, what: ex.What, detail: ex.Message, errorCode: ex.ErrorCode}
			}
		case ct.handler != nil:
			err = ct.handler((*Context)(a))
			if err == nil {
				err, a.err = a.err, nil
			}
		}
		if err == nil && a.trx.ctx.Err() != nil {
			err = errDeadline()
		}
		if err != nil {
			if console := tr.Console.String(); console != "" {
				err = withConsole(err, a.receiver, act, console)
			}
			return err
		}
	}
	if err := a.checkRAMRestrictions(tr); err != nil {
		return err
	}
	a.trx.executed++
	tr.GlobalSeq = a.trx.executed
	tr.Elapsed = time.Since(start)
	c.logConsole(tr)
	return nil
}

// checkRAMRestrictions is nodeos's ram_restrictions rule: an unprivileged
// contract may increase another account's RAM only with that account's
// authority on the action, and never in a notification.
func (a *applyContext) checkRAMRestrictions(tr *ActionTrace) error {
	if a.privileged {
		return nil
	}
	names := make([]antelope.Name, 0, len(tr.RAMDeltas))
	for n := range tr.RAMDeltas {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if tr.RAMDeltas[n] <= 0 || n == a.receiver {
			continue
		}
		if a.receiver != a.act().Account {
			return errUnauthorizedRAM("unprivileged contract cannot increase RAM usage of another account within a notify context: " + n.String())
		}
		if !a.hasAuth(n) {
			return errUnauthorizedRAM("unprivileged contract cannot increase RAM usage of another account that has not authorized the action: " + n.String())
		}
	}
	return nil
}

func (a *applyContext) hasAuth(account antelope.Name) bool {
	for _, l := range a.act().Authorization {
		if l.Actor == account {
			return true
		}
	}
	return false
}

func (a *applyContext) requireAuth(account antelope.Name) error {
	if !a.hasAuth(account) {
		return errMissingAuth("missing authority of " + account.String())
	}
	return nil
}

func (a *applyContext) requireAuth2(account, permission antelope.Name) error {
	for _, l := range a.act().Authorization {
		if l.Actor == account && l.Permission == permission {
			return nil
		}
	}
	return errMissingAuth("missing authority of " + account.String() + "/" + permission.String())
}

// requireRecipient notifies account of the action (once).
func (a *applyContext) requireRecipient(account antelope.Name) error {
	for _, n := range a.notified {
		if n.receiver == account {
			return nil
		}
	}
	ord, err := a.trx.schedule(*a.act(), account, false, a.ordinal, a.firstReceiverOrdinal)
	if err != nil {
		return err
	}
	a.notified = append(a.notified, notice{account, ord})
	return nil
}

// sendInline queues an inline action after nodeos's checks: its contract
// and authorizing permissions exist, and (unless the sender is privileged)
// each authorization is satisfied by the sender's eosio.code permission.
func (a *applyContext) sendInline(act antelope.Action, contextFree bool) error {
	c := a.trx.c
	if c.Account(act.Account) == nil {
		return ErrActionValidate("inline action's code account " + act.Account.String() + " does not exist")
	}
	if contextFree && len(act.Authorization) > 0 {
		return ErrActionValidate("context-free actions cannot have authorizations")
	}
	for _, l := range act.Authorization {
		if c.Account(l.Actor) == nil {
			return ErrActionValidate("inline action's authorizing actor " + l.Actor.String() + " does not exist")
		}
		if !c.permissionExists(l) {
			return ErrActionValidate("inline action's authorizations include a non-existent permission: " + LevelText(l))
		}
	}
	if !a.privileged && !a.trx.readOnly {
		if err := c.CheckDeclaredPermissions(&act); err != nil {
			return err
		}
		code := antelope.PermissionLevel{Actor: a.receiver, Permission: nameEosioCode}
		ac := &AuthChecker{Engine: c, Used: map[int]bool{}, provided: []antelope.PermissionLevel{code}}
		for _, l := range act.Authorization {
			if !ac.Satisfied(l, 0) {
				return ErrUnsatisfied(fmt.Sprintf("transaction declares authority '%s', but does not have signatures for it under a provided delay of 0 ms, provided permissions [%s], provided keys [], and a delay max limit of 3888000000 ms",
					LevelText(l), LevelText(code)))
			}
		}
	}
	ord, err := a.trx.schedule(act, act.Account, contextFree, a.ordinal, a.firstReceiverOrdinal)
	if err != nil {
		return err
	}
	if contextFree {
		a.cfInline = append(a.cfInline, ord)
	} else {
		a.inline = append(a.inline, ord)
	}
	return nil
}

// withConsole adds the action's console output to a failure, as nodeos's
// "pending console output" does.
func withConsole(err error, receiver antelope.Name, act *antelope.Action, console string) error {
	var ex *Exception
	if !errors.As(err, &ex) {
		return err
	}
	cp := *ex
	cp.more = append(append([]string(nil), ex.more...),
		fmt.Sprintf("%s <= %s::%s pending console output: %s", receiver, act.Account, act.Name, console))
	return &cp
}

// logConsole writes an action's console output to the WithConsoleLog
// logger.
func (c *Engine) logConsole(tr *ActionTrace) {
	if c.console == nil || tr.Console.Len() == 0 {
		return
	}
	c.console.Logf("[%s::%s -> %s] %s", tr.Action.Account, tr.Action.Name, tr.Receiver, tr.Console.String())
}
