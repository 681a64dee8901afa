package wasm

import (
	"context"

	"errors"
	"github.com/tetratelabs/wazero/api"
	"os"
	"strings"
	"testing"
	"time"
)

// fakeHost serves what the engine tests call; any other method panics
// (the embedded nil Host).
type fakeHost struct {
	Host
	console strings.Builder
	auths   []uint64
	isAcct  map[uint64]bool
}

func (h *fakeHost) Print(s string) { h.console.WriteString(s) }
func (h *fakeHost) RequireAuth(a uint64) error {
	for _, x := range h.auths {
		if x == a {
			return nil
		}
	}
	return errors.New("missing authority")
}
func (h *fakeHost) IsAccount(a uint64) bool { return h.isAcct[a] }
func (h *fakeHost) Privileged() bool        { return false }

func newEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := NewEngine(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func run(t *testing.T, e *Engine, m *testModule, h Host, timeout time.Duration) error {
	t.Helper()
	mod, err := e.Compile(m.bytes())
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return mod.Run(ctx, h, Action{Receiver: 1, Code: 1, Name: 2})
}

func wantException(t *testing.T, err error, name, msg string) {
	t.Helper()
	var ex *Exception
	if !errors.As(err, &ex) || ex.Name != name || ex.Message != msg {
		t.Fatalf("got %v, want %s: %s", err, name, msg)
	}
}

func TestAssertMessage(t *testing.T) {
	e := newEngine(t)
	m := &testModule{imports: []string{"eosio_assert"}, data: []byte("overdrawn balance\x00"),
		funcs: []testFunc{applyFunc(i32c(0), i32c(1024), callf(0))}}
	wantException(t, run(t, e, m, &fakeHost{}, time.Second), "eosio_assert_message_exception", "assertion failure with message: overdrawn balance")
}

func TestAssertCodeAndAbort(t *testing.T) {
	e := newEngine(t)
	m := &testModule{imports: []string{"eosio_assert_code"}, funcs: []testFunc{applyFunc(i32c(0), i64c(42), callf(0))}}
	wantException(t, run(t, e, m, &fakeHost{}, time.Second), "eosio_assert_code_exception", "assertion failure with error code: 42")
	m = &testModule{imports: []string{"abort"}, funcs: []testFunc{applyFunc(callf(0))}}
	wantException(t, run(t, e, m, &fakeHost{}, time.Second), "abort_called", "abort() called")
}

func TestDeadline(t *testing.T) {
	e := newEngine(t)
	m := &testModule{funcs: []testFunc{applyFunc(opLoopForever)}}
	start := time.Now()
	wantException(t, run(t, e, m, &fakeHost{}, 50*time.Millisecond), "tx_cpu_usage_exceeded", "transaction was executing for too long, reached node configured max-transaction-time (chaintest.WithDeadline)")
	if time.Since(start) > 10*time.Second {
		t.Errorf("the deadline took %v to stop the loop", time.Since(start))
	}
}

func TestUnimplementedIntrinsicTraps(t *testing.T) {
	e := newEngine(t)
	m := &testModule{imports: []string{"bls_g1_add"},
		funcs: []testFunc{applyFunc(i32c(0), i32c(0), i32c(0), i32c(0), i32c(0), i32c(0), callf(0), opDrop)}}
	wantException(t, run(t, e, m, &fakeHost{}, time.Second), "wasm_execution_error", "chaintest does not implement the intrinsic bls_g1_add")
}

func TestMemcpyOverlapRefused(t *testing.T) {
	e := newEngine(t)
	m := &testModule{imports: []string{"memcpy", "memmove"}, funcs: []testFunc{applyFunc(
		i32c(100), i32c(90), i32c(10), callf(1), opDrop, // memmove may overlap
		i32c(100), i32c(90), i32c(10), callf(0), opDrop, // 10 apart: not overlapping
		i32c(100), i32c(91), i32c(10), callf(0), opDrop)}}
	wantException(t, run(t, e, m, &fakeHost{}, time.Second), "overlapping_memory_error", "memcpy can only accept non-aliasing pointers")
}

func TestAccessViolation(t *testing.T) {
	e := newEngine(t)
	// The contract itself past its memory, and an intrinsic's pointer.
	m := &testModule{funcs: []testFunc{applyFunc(i32c(70000), opI32Load, opDrop)}}
	wantException(t, run(t, e, m, &fakeHost{}, time.Second), "wasm_execution_error", "access violation")
	m = &testModule{imports: []string{"prints_l"}, funcs: []testFunc{applyFunc(i32c(65530), i32c(10), callf(0))}}
	wantException(t, run(t, e, m, &fakeHost{}, time.Second), "wasm_execution_error", "access violation")
}

func TestMemoryCap(t *testing.T) {
	e := newEngine(t)
	// Growing to exactly 528 pages works; one more page fails with -1,
	// which the contract asserts on.
	m := &testModule{imports: []string{"eosio_assert"}, data: []byte("grow\x00"), funcs: []testFunc{applyFunc(
		i32c(MaxPages-1), opMemoryGrow, i32c(1), []byte{0x46}, i32c(1024), callf(0), // grow(527) == 1
		i32c(1), opMemoryGrow, i32c(-1), []byte{0x46}, i32c(1024), callf(0))}} // grow(1) == -1
	if err := run(t, e, m, &fakeHost{}, time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestFreshInstancePerRun(t *testing.T) {
	e := newEngine(t)
	// Asserts that memory and the global are as the module declares them,
	// then changes both: a second run must see them fresh.
	m := &testModule{imports: []string{"eosio_assert"}, data: []byte("dirty\x00"), funcs: []testFunc{applyFunc(
		i32c(0), opI32Load, opI32Eqz, i32c(1024), callf(0),
		opGlobalGet0, opI32Eqz, i32c(1024), callf(0),
		i32c(0), i32c(7), opI32Store,
		i32c(5), opGlobalSet0)}}
	for i := range 3 {
		if err := run(t, e, m, &fakeHost{}, time.Second); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
}

func TestExitEndsTheActionWell(t *testing.T) {
	e := newEngine(t)
	m := &testModule{imports: []string{"eosio_exit"}, funcs: []testFunc{applyFunc(i32c(0), callf(0), opUnreachable)}}
	if err := run(t, e, m, &fakeHost{}, time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestTrapIsAnExecutionError(t *testing.T) {
	e := newEngine(t)
	m := &testModule{funcs: []testFunc{applyFunc(opUnreachable)}}
	err := run(t, e, m, &fakeHost{}, time.Second)
	var ex *Exception
	if !errors.As(err, &ex) || ex.Name != "wasm_execution_error" || !strings.Contains(ex.Message, "unreachable") {
		t.Fatalf("got %v", err)
	}
}

func TestHostErrorReturnedUnchanged(t *testing.T) {
	e := newEngine(t)
	m := &testModule{imports: []string{"require_auth"}, funcs: []testFunc{applyFunc(i64c(9), callf(0))}}
	err := run(t, e, m, &fakeHost{}, time.Second)
	if err == nil || err.Error() != "missing authority" {
		t.Fatalf("got %v", err)
	}
}

func TestPrivilegedRefused(t *testing.T) {
	e := newEngine(t)
	m := &testModule{imports: []string{"set_privileged"}, funcs: []testFunc{applyFunc(i64c(9), i32c(1), callf(0))}}
	// Receiver 1 is the name "............1"… as nodeos words it.
	err := run(t, e, m, &fakeHost{}, time.Second)
	var ex *Exception
	if !errors.As(err, &ex) || ex.Name != "unaccessible_api" || !strings.HasSuffix(ex.Message, " does not have permission to call this API") {
		t.Fatalf("got %v", err)
	}
}

func TestCompileRefuses(t *testing.T) {
	e := newEngine(t)
	if _, err := e.Compile([]byte("not wasm")); err == nil {
		t.Error("text compiled")
	}
	// An import that is no intrinsic.
	good := (&testModule{imports: []string{"prints"}, funcs: []testFunc{applyFunc()}}).bytes()
	bad := []byte(strings.Replace(string(good), "prints", "printz", 1))
	if _, err := e.Compile(bad); err == nil || !strings.Contains(err.Error(), "env.printz unresolveable") {
		t.Errorf("unknown import: %v", err)
	}
	// No apply.
	noApply := []byte(strings.Replace(string(good), "apply", "apple", 1))
	if _, err := e.Compile(noApply); err == nil || !strings.Contains(err.Error(), "apply") {
		t.Errorf("no apply: %v", err)
	}
}

func TestCompileOncePerHash(t *testing.T) {
	e := newEngine(t)
	code := (&testModule{funcs: []testFunc{applyFunc()}}).bytes()
	a, _ := e.Compile(code)
	b, _ := e.Compile(append([]byte(nil), code...))
	if a != b {
		t.Error("the same code compiled twice")
	}
}

// The real reject_all contract, with a host that knows no accounts.
func TestRejectAll(t *testing.T) {
	e := newEngine(t)
	code, err := os.ReadFile("../../testdata/wasm/reject_all.wasm")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := e.Compile(code)
	if err != nil {
		t.Fatal(err)
	}
	err = mod.Run(context.Background(), &fakeHost{}, Action{Receiver: 5, Code: 5, Name: 6})
	wantException(t, err, "eosio_assert_message_exception", "assertion failure with message: rejecting all actions")
	err = mod.Run(context.Background(), &fakeHost{}, Action{Receiver: 5, Code: 7, Name: 6})
	wantException(t, err, "eosio_assert_message_exception", "assertion failure with message: rejecting all notifications")
}

func TestEveryImportOfTheRealContractsIsBound(t *testing.T) {
	e := newEngine(t)
	files, _ := os.ReadDir("../../testdata/wasm")
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".wasm") {
			continue
		}
		code, _ := os.ReadFile("../../testdata/wasm/" + f.Name())
		if _, err := e.Compile(code); err != nil {
			t.Errorf("%s: %v", f.Name(), err)
		}
	}
}

func TestDeepRecursionStops(t *testing.T) {
	e := newEngine(t)
	// apply calls f; f calls itself forever: wazero's stack bound stops it.
	m := &testModule{funcs: []testFunc{applyFunc(callf(1)), {body: callf(1)}}}
	err := run(t, e, m, &fakeHost{}, 20*time.Second)
	wantException(t, err, "wasm_execution_error", "stack overflow: call depth exceeds 250")
}

// A recursion exactly MaxCallDepth deep runs; one deeper does not.
func TestCallDepthBound(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct {
		depth int32
		ok    bool
	}{{MaxCallDepth - 2, true}, {MaxCallDepth - 1, false}, {10, true}} {
		// f(n): if n != 0 { f(n-1) }; apply calls f(depth): apply is
		// depth 1, f(depth)…f(0) are depth+1 more: 250 in all for 248.
		f := testFunc{params: []api.ValueType{i32}, body: concat(localGet(0), []byte{0x04, 0x40}, localGet(0), i32c(1), []byte{0x6b}, callf(1), []byte{0x0b})}
		m := &testModule{funcs: []testFunc{applyFunc(i32c(c.depth), callf(1)), f}}
		err := run(t, e, m, &fakeHost{}, 5*time.Second)
		if (err == nil) != c.ok {
			t.Errorf("depth %d: %v", c.depth, err)
		}
	}
	// return and br to the function label still unwind the count: a
	// function that returns early, called 1,000 times in a loop.
	early := testFunc{body: concat([]byte{0x02, 0x40}, i32c(1), []byte{0x0d, 0x01}, []byte{0x0b}, []byte{0x0f})}
	loop := concat(i32c(1000), []byte{0x21, 0x03}, // local 3 = 1000 (apply has 3 params; local 3 is its i32 local)
		[]byte{0x03, 0x40}, callf(1), localGet(3), i32c(1), []byte{0x6b, 0x22, 0x03, 0x0d, 0x00, 0x0b})
	apply := applyFunc(loop)
	apply.locals = []api.ValueType{i32}
	m := &testModule{funcs: []testFunc{apply, early}}
	if err := run(t, e, m, &fakeHost{}, 5*time.Second); err != nil {
		t.Errorf("early returns: %v", err)
	}
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestRealContractsRunDepthBounded(t *testing.T) {
	e := newEngine(t)
	files, _ := os.ReadDir("../../testdata/wasm")
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".wasm") {
			continue
		}
		code, _ := os.ReadFile("../../testdata/wasm/" + f.Name())
		m, err := e.Compile(code)
		if err != nil || !m.CallDepthBounded() {
			t.Errorf("%s: %v, bounded %v", f.Name(), err, err == nil && m.CallDepthBounded())
		}
	}
}
