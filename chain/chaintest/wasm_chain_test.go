package chaintest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/model"
)

// Deploy through the chain client: the real setcode and setabi actions.
func TestDeployThroughClient(t *testing.T) {
	for _, opt := range []struct {
		name string
		opts []chaintest.Option
	}{{"http", nil}, {"in-process", []chaintest.Option{chaintest.WithoutNetwork()}}} {
		t.Run(opt.name, func(t *testing.T) {
			c := chaintest.New(opt.opts...)
			t.Cleanup(c.Close)
			key := c.NewAccount(eosioToken)
			cl := c.Client()
			code, abi := contractFile(t, "eosio.token", "wasm"), contractFile(t, "eosio.token", "abi")
			res, err := cl.Deploy(t.Context(), key, eosioToken, code, abi)
			if err != nil {
				t.Fatal(err)
			}
			if !res.CodeSent || !res.ABISent || res.Transaction == nil || res.CodeHash != sha256.Sum256(code) {
				t.Fatalf("first deploy: %+v", res)
			}
			hash, err := cl.GetCodeHash(t.Context(), eosioToken)
			if err != nil || hash != sha256.Sum256(code) {
				t.Fatalf("code hash %s %v", hash, err)
			}
			gotCode, gotABI, err := cl.GetRawCodeAndABI(t.Context(), eosioToken)
			src, _ := model.Load(abi)
			packed, _ := src.ABI.Pack()
			if err != nil || !bytes.Equal(gotCode, code) || !bytes.Equal(gotABI, packed) {
				t.Fatalf("get_raw_code_and_abi: %d bytes of code, %d of ABI, %v", len(gotCode), len(gotABI), err)
			}
			// Unchanged: nothing sent.
			head := c.Head().Num
			res, err = cl.Deploy(t.Context(), key, eosioToken, code, abi)
			if err != nil || res.CodeSent || res.ABISent || res.Transaction != nil || c.Head().Num != head {
				t.Fatalf("second deploy: %+v %v", res, err)
			}
			// Forced: nodeos refuses the same code again.
			_, err = cl.Deploy(t.Context(), key, eosioToken, code, abi, chain.ForceDeploy())
			var ae *chain.APIError
			if !errors.As(err, &ae) || ae.Name != "set_exact_code" || ae.Details[0].Message != "contract is already running this version of code" {
				t.Fatalf("forced: %v", err)
			}
			// The deployed contract works.
			create, _ := eosiotoken.Contract{Account: eosioToken}.Create(eosiotoken.Create{Issuer: eosioToken, MaximumSupply: wax(100)}, antelope.Active(eosioToken))
			if _, err := cl.Transact(t.Context(), key, create); err != nil {
				t.Fatal(err)
			}
			// Another account's authority cannot set the code.
			bobKey := c.NewAccount(bob)
			_, err = cl.Deploy(t.Context(), bobKey, eosioToken, contractFile(t, "eosio.msig", "wasm"), nil, chain.DeployAuthority(antelope.Active(bob)))
			if !errors.As(err, &ae) || ae.Name != "missing_auth_exception" {
				t.Fatalf("bob deploys: %v", err)
			}
		})
	}
}

// loopForever is a contract whose apply never returns.
var loopForever = []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x07, 0x01, 0x60, 0x03, 0x7e, 0x7e, 0x7e, 0x00, // type (i64, i64, i64) -> ()
	0x03, 0x02, 0x01, 0x00, // function 0: type 0
	0x05, 0x03, 0x01, 0x00, 0x01, // memory: 1 page
	0x07, 0x09, 0x01, 0x05, 'a', 'p', 'p', 'l', 'y', 0x00, 0x00, // export apply
	0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b} // loop br 0 end

func TestDeadlineStopsALoopingContract(t *testing.T) {
	w := newWasmTester(t, chaintest.WithDeadline(100*time.Millisecond))
	w.accounts("looper", "eosio.token", "alice")
	must(t, w.c.DeployWASM(antelope.MustName("looper"), loopForever, nil))
	_, err := w.push(act("looper", "spin", nil, "looper"))
	if !errors.Is(err, chain.ErrCPU) {
		t.Fatalf("got %v", err)
	}
	wantException(t, err, "tx_cpu_usage_exceeded", "transaction was executing for too long, reached node configured max-transaction-time (chaintest.WithDeadline)")
	// The chain goes on.
	w.deploy("eosio.token", "eosio.token")
	a, _ := eosiotoken.Contract{Account: eosioToken}.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: wax(100)}, antelope.Active(eosioToken))
	w.mustPush(a)
}

// ramDeltas reads account_ram_deltas from the node's trace.
func ramDeltas(t *testing.T, res *chain.TransactResult) map[string]int64 {
	t.Helper()
	var p struct {
		ActionTraces []struct {
			Deltas []struct {
				Account string `json:"account"`
				Delta   int64  `json:"delta"`
			} `json:"account_ram_deltas"`
		} `json:"action_traces"`
	}
	if err := json.Unmarshal(res.Processed, &p); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, at := range p.ActionTraces {
		for _, d := range at.Deltas {
			out[d.Account] += d.Delta
		}
	}
	return out
}

// RAM is billed by nodeos's sizes, the same for the wasm and the Go
// handler: a balance row (16 bytes) is 112+16, its new table 112.
func TestRAMBilledByBillableSizes(t *testing.T) {
	for _, impl := range []string{"wasm", "go"} {
		t.Run(impl, func(t *testing.T) {
			w := newWasmTester(t)
			w.accounts("eosio.token", "alice", "bob")
			if impl == "wasm" {
				w.deploy("eosio.token", "eosio.token")
			} else {
				must(t, w.c.DeployToken(eosioToken))
			}
			tok := eosiotoken.Contract{Account: eosioToken}
			a, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: asset(t, "100.0000 TKN")}, antelope.Active(eosioToken))
			res := w.mustPush(a)
			// stat row: asset, asset, name = 40 bytes; and its table.
			if d := ramDeltas(t, res); d["eosio.token"] != 112+112+40 {
				t.Errorf("create: %v", d)
			}
			a, _ = tok.Issue(eosiotoken.Issue{To: alice, Quantity: asset(t, "10.0000 TKN")}, antelope.Active(alice))
			res = w.mustPush(a)
			if d := ramDeltas(t, res); d["alice"] != 112+112+16 {
				t.Errorf("issue: %v", d)
			}
			a, _ = tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: asset(t, "1.0000 TKN")}, antelope.Active(alice))
			res = w.mustPush(a)
			if d := ramDeltas(t, res); d["alice"] != 112+112+16 || d["bob"] != 0 {
				t.Errorf("transfer: %v", d)
			}
			acct, err := w.cl.GetAccount(t.Context(), alice)
			// alice started with newaccount's 2048 + 2×288 + 2 keys × 50 +
			// eosio.code's 32 = 2756.
			if err != nil || acct.RAMUsage != 2756+2*(112+112+16) {
				t.Errorf("alice's ram_usage: %+v %v", acct, err)
			}
		})
	}
}

var (
	nameRAM    = antelope.MustName("ramcontract")
	tableThing = antelope.MustName("things")
	abiThings  = []byte(`{"version":"eosio::abi/1.1","structs":[{"name":"thing","base":"","fields":[{"name":"v","type":"uint64"}]}],
	"actions":[{"name":"store","type":"thing"},{"name":"notify","type":"thing"},{"name":"deep","type":"thing"},{"name":"order","type":"thing"}],
	"tables":[{"name":"things","index_type":"i64","key_names":[],"key_types":[],"type":"thing"}]}`)
)

// A Go handler that bills RAM to bob, in the action or in a notification,
// recurses inline, or records the order it ran in.
func ramHandler(log *[]string) chaintest.Handler {
	return func(x *chaintest.Context) error {
		*log = append(*log, x.Action.Name.String()+"@"+x.Receiver.String())
		switch x.Action.Name.String() {
		case "store":
			return x.Set(bob, tableThing, 1, []byte{1}, bob)
		case "notify":
			if x.Receiver == x.Code() {
				x.RequireRecipient(alice)
				return nil
			}
			return x.Set(bob, tableThing, 1, []byte{1}, bob)
		case "deep":
			data := x.Action.Data
			n := data[0]
			if n == 0 {
				return nil
			}
			return x.SendInline(antelope.Action{Account: nameRAM, Name: x.Action.Name,
				Authorization: []antelope.PermissionLevel{antelope.Active(nameRAM)}, Data: []byte{n - 1, 0, 0, 0, 0, 0, 0, 0}})
		case "order":
			if x.Receiver == x.Code() && x.Action.Data[0] == 1 {
				// notify alice, then send two inline actions: alice's
				// notification runs first, then each inline action with its
				// own notification before the next.
				x.RequireRecipient(alice)
				for range 2 {
					if err := x.SendInline(antelope.Action{Account: nameRAM, Name: x.Action.Name,
						Authorization: []antelope.PermissionLevel{antelope.Active(nameRAM)}, Data: make([]byte, 8)}); err != nil {
						return err
					}
				}
			} else if x.Receiver == x.Code() {
				x.RequireRecipient(bob)
			}
		}
		return nil
	}
}

func TestRAMRestrictions(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("ramcontract", "alice", "bob")
	var log []string
	must(t, w.c.SetContract(nameRAM, abiThings, ramHandler(&log)))
	// Billing bob without bob's authority.
	_, err := w.push(act("ramcontract", "store", make([]byte, 8), "alice"))
	wantException(t, err, "unauthorized_ram_usage_increase", "unprivileged contract cannot increase RAM usage of another account that has not authorized the action: bob")
	// With it.
	a := act("ramcontract", "store", make([]byte, 8), "alice")
	a.Authorization = append(a.Authorization, antelope.Active(bob))
	w.mustPush(a)
	// In a notification, never.
	must(t, w.c.SetContract(alice, abiThings, ramHandler(&log)))
	a = act("ramcontract", "notify", make([]byte, 8), "bob")
	_, err = w.push(a)
	wantException(t, err, "unauthorized_ram_usage_increase", "unprivileged contract cannot increase RAM usage of another account within a notify context: bob")
}

func TestInlineDepthLimit(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("ramcontract")
	var log []string
	must(t, w.c.SetContract(nameRAM, abiThings, ramHandler(&log)))
	// 4 levels of inline actions below the top one are allowed…
	w.mustPush(act("ramcontract", "deep", []byte{4, 0, 0, 0, 0, 0, 0, 0}, "ramcontract"))
	// …a fifth is not.
	_, err := w.push(act("ramcontract", "deep", []byte{5, 0, 0, 0, 0, 0, 0, 0}, "ramcontract"))
	wantException(t, err, "transaction_exception", "max inline action depth per transaction reached")
}

// nodeos's order: the action, its notifications, then each inline action
// with its own notifications and inline actions (depth-first); traces by
// ordinal (scheduling order).
func TestExecutionOrderIsDepthFirst(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("ramcontract", "alice", "bob")
	var log []string
	must(t, w.c.SetContract(nameRAM, abiThings, ramHandler(&log)))
	must(t, w.c.SetContract(alice, abiThings, ramHandler(&log)))
	must(t, w.c.SetContract(bob, abiThings, ramHandler(&log)))
	res := w.mustPush(act("ramcontract", "order", []byte{1, 0, 0, 0, 0, 0, 0, 0}, "ramcontract"))
	want := "order@ramcontract order@alice order@ramcontract order@bob order@ramcontract order@bob"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("ran %s\nwant %s", got, want)
	}
	var ords []string
	for _, at := range res.Actions {
		ords = append(ords, at.Receiver.String())
	}
	// ordinals: 1 order@ramcontract, 2 alice (notified), 3 and 4 the inline
	// actions, 5 and 6 their notifications of bob.
	if got := strings.Join(ords, " "); got != "ramcontract alice ramcontract ramcontract bob bob" {
		t.Errorf("traces by ordinal: %s", got)
	}
}

// A Go handler's console output reaches the trace and the test log.
func TestConsoleInTraceAndLog(t *testing.T) {
	var logged strings.Builder
	w := newWasmTester(t, chaintest.WithConsoleLog(logfFunc(func(format string, args ...any) {
		logged.WriteString(strings.TrimSpace(format))
	})))
	w.accounts("ramcontract")
	must(t, w.c.SetContract(nameRAM, abiThings, func(x *chaintest.Context) error { x.Print("hello"); return nil }))
	res := w.mustPush(act("ramcontract", "store", make([]byte, 8), "ramcontract"))
	if res.Actions[0].Console != "hello" || !strings.Contains(logged.String(), "[%s::%s -> %s] %s") {
		t.Errorf("console %q, log %q", res.Actions[0].Console, logged.String())
	}
}

type logfFunc func(format string, args ...any)

func (f logfFunc) Logf(format string, args ...any) { f(format, args...) }
