package wasm

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// Ways a run of freshModule leaves its instance, by action name: 0 checks
// only; the others check, then write memory (in and past the data
// segment) and every mutable global, and then end so.
const (
	endCheckOnly = iota
	endReturn
	endTrap
	endGrow // memory.grow, and a write in the new pages
	endExit // eosio_exit
	endAssert
	endDeadline // loops past the deadline
	endKinds
)

// freshModule asserts, on every run, that its instance looks new: memory
// of one page, zero but for the data segment, every global at its initial
// value ("stale" otherwise), then dirties it as its action says.
func freshModule() *testModule {
	const stale, boom = 1028, 1034
	check := func(cond ...[]byte) []byte { // assert(cond) or fail "stale"
		var b []byte
		for _, c := range cond {
			b = append(b, c...)
		}
		return append(b, append(i32c(stale), callf(0)...)...)
	}
	f64c := func(v float64) []byte { return binary.LittleEndian.AppendUint64([]byte{0x44}, math.Float64bits(v)) }
	when := func(kind int64, body ...[]byte) []byte { // if action == kind { body }
		b := append(localGet(2), i64c(kind)...)
		b = append(b, 0x51, 0x04, 0x40) // i64.eq if
		for _, x := range body {
			b = append(b, x...)
		}
		return append(b, 0x0b)
	}
	store := func(addr, v int32) []byte { return append(append(i32c(addr), i32c(v)...), opI32Store...) }
	return &testModule{
		imports: []string{"eosio_assert", "eosio_exit"},
		data:    []byte("abcdstale\x00boom\x00"),
		globals: [][]byte{
			{0x7e, 0x01, 0x42, 0x89, 0xcf, 0x95, 0x9a, 0x12, 0x0b}, // global 1: mutable i64 = 0x123456789
			append(append([]byte{0x7c, 0x01}, f64c(2.5)...), 0x0b), // global 2: mutable f64 = 2.5
			{0x7f, 0x00, 0x41, 0x07, 0x0b},                         // global 3: immutable i32 = 7
			{0x7d, 0x01, 0x43, 0x00, 0x00, 0xc0, 0x3f, 0x0b},       // global 4: mutable f32 = 1.5
		},
		funcs: []testFunc{applyFunc(
			check([]byte{0x3f, 0x00}, i32c(1), []byte{0x46}),                      // memory.size == 1
			check(i32c(1024), opI32Load, i32c(0x64636261), []byte{0x46}),          // the data segment
			check(i32c(0), opI32Load, opI32Eqz),                                   // zero below it
			check(i32c(2048), opI32Load, opI32Eqz),                                // and past it
			check(i32c(65532), opI32Load, opI32Eqz),                               // to the page's end
			check(opGlobalGet0, opI32Eqz),                                         // the globals
			check([]byte{0x23, 0x01}, i64c(0x123456789), []byte{0x51}),            //
			check([]byte{0x23, 0x02}, f64c(2.5), []byte{0x61}),                    //
			check([]byte{0x23, 0x03}, i32c(7), []byte{0x46}),                      //
			check([]byte{0x23, 0x04}, []byte{0x43, 0x00, 0x00, 0xc0, 0x3f, 0x5b}), // f32.eq
			when(endCheckOnly, []byte{0x0f}),                                      // return
			store(0, 7), store(1024, 0x11111111), store(2048, 1), store(65532, 9),
			i32c(5), opGlobalSet0,
			i64c(42), []byte{0x24, 0x01},
			f64c(-1), []byte{0x24, 0x02},
			[]byte{0x43, 0, 0, 0, 0, 0x24, 0x04},
			when(endTrap, opUnreachable),
			when(endGrow, i32c(2), opMemoryGrow, opDrop, store(3*65536-4, 3)),
			when(endExit, i32c(0), callf(1)),
			when(endAssert, i32c(0), i32c(boom), callf(0)),
			when(endDeadline, opLoopForever),
		)},
	}
}

// checkEnd is what a run of freshModule ending as kind must return.
func checkEnd(t *testing.T, kind int, err error) {
	t.Helper()
	var ex *Exception
	switch kind {
	case endTrap:
		if !errors.As(err, &ex) || ex.Name != "wasm_execution_error" || !strings.Contains(ex.Message, "unreachable") {
			t.Fatalf("a trap: got %v", err)
		}
	case endAssert:
		wantException(t, err, "eosio_assert_message_exception", "assertion failure with message: boom")
	case endDeadline:
		wantException(t, err, "tx_cpu_usage_exceeded", "transaction was executing for too long, reached node configured max-transaction-time (chaintest.WithDeadline)")
	default:
		if err != nil {
			t.Fatalf("kind %d: %v (stale: the instance did not look new)", kind, err)
		}
	}
}

// Every run sees a fresh-looking instance, whatever the run before it did
// to memory and globals, and however it ended: a return, a trap, an
// assertion, eosio_exit, memory.grow, the deadline. Random sequences of
// runs, each checking it is fresh, on one module.
func TestReusedInstanceLooksNew(t *testing.T) {
	e := newEngine(t)
	mod, err := e.Compile(freshModule().bytes())
	if err != nil {
		t.Fatal(err)
	}
	if mod.reuse == nil {
		t.Fatal("freshModule's instances are not reused: this test would prove nothing")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	reused := 0
	for i := range 300 {
		kind := rng.IntN(endKinds)
		if kind == endDeadline && rng.IntN(8) != 0 {
			kind = endReturn // the deadline's run costs its timeout
		}
		timeout := time.Minute
		if kind == endDeadline {
			timeout = 20 * time.Millisecond
		}
		mod.mu.Lock()
		if len(mod.free) > 0 {
			reused++
		}
		mod.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		err := mod.Run(ctx, &fakeHost{}, Action{Receiver: 1, Code: 1, Name: uint64(kind)})
		cancel()
		checkEnd(t, kind, err)
		// The next run checks freshness first.
		mod.mu.Lock()
		if len(mod.free) > 0 {
			reused++
		}
		mod.mu.Unlock()
		if err := mod.Run(context.Background(), &fakeHost{}, Action{Receiver: 1, Code: 1, Name: endCheckOnly}); err != nil {
			t.Fatalf("run %d, after one that ended as %d: %v", i, kind, err)
		}
	}
	if reused < 400 {
		t.Fatalf("only %d of 600 runs reused an instance", reused)
	}
}

// After a run that grew memory, or passed its deadline, the instance is
// not kept: wazero cannot shrink memory, and closes an instance whose
// context ended.
func TestInstanceNotKeptAfterGrowOrDeadline(t *testing.T) {
	e := newEngine(t)
	mod, err := e.Compile(freshModule().bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []int{endGrow, endDeadline} {
		mod.mu.Lock()
		for _, in := range mod.free {
			_ = in.mod.Close(context.Background())
		}
		mod.free = nil
		mod.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		checkEnd(t, kind, mod.Run(ctx, &fakeHost{}, Action{Receiver: 1, Code: 1, Name: uint64(kind)}))
		cancel()
		mod.mu.Lock()
		n := len(mod.free)
		mod.mu.Unlock()
		if n != 0 {
			t.Fatalf("after a run ending as %d, %d instances kept", kind, n)
		}
	}
}

// Runs of one module from many goroutines each get an instance of their
// own (chains sharing an engine; -race checks the pool).
func TestReusedInstancesConcurrently(t *testing.T) {
	e := newEngine(t)
	mod, err := e.Compile(freshModule().bytes())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				kind := []int{endReturn, endTrap, endExit, endAssert, endCheckOnly}[(g+i)%5]
				err := mod.Run(context.Background(), &fakeHost{}, Action{Receiver: 1, Code: 1, Name: uint64(kind)})
				if (err == nil) != (kind != endTrap && kind != endAssert) || (err != nil && strings.Contains(err.Error(), "stale")) {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// A module whose reset cannot be described exactly is instantiated anew
// for every run: a start function, an export under the reserved names.
func TestNotReusable(t *testing.T) {
	code := freshModule().bytes()
	if _, _, ok := prepareReuse(code); !ok {
		t.Fatal("freshModule is not reusable")
	}
	withStart := insertSection(code, 8, uleb(2)) // start: function 2 (apply)
	if _, _, ok := prepareReuse(withStart); ok {
		t.Error("a module with a start function is reused")
	}
	// prepareReuse's own output exports the reserved names.
	withExports, _, _ := prepareReuse(code)
	if _, _, ok := prepareReuse(withExports); ok {
		t.Error("a module exporting a reserved name is reused")
	}
}

// insertSection puts a section of id before the first section with a
// greater id.
func insertSection(code []byte, id byte, body []byte) []byte {
	r := &wasmReader{b: code, pos: 8}
	for r.pos < len(code) {
		at := r.pos
		if code[at] > id {
			out := append([]byte(nil), code[:at]...)
			out = append(out, section(id, body)...)
			return append(out, code[at:]...)
		}
		r.byte()
		r.skip(int(r.uleb()))
	}
	return append(append([]byte(nil), code...), section(id, body)...)
}
