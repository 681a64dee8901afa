package wasm

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/tetratelabs/wazero/api"
)

// randomShape is a module of a random shape: no memory or one of up to
// three pages, data segments anywhere in it (overlapping, empty, at its
// end), globals of every type, mutable or not, with any constant (negative
// i32s, NaN bits), some exported by the contract itself. Its apply sets
// every mutable global and writes memory, so that a reset has work to do.
func randomShape(rng *rand.Rand) []byte {
	pages := rng.IntN(4) - 1 // -1: no memory
	var globals [][]byte
	var sets []byte
	for j := range rng.IntN(6) {
		typ := []byte{0x7f, 0x7e, 0x7d, 0x7c}[rng.IntN(4)]
		mut := byte(rng.IntN(2))
		constant := func() []byte {
			switch typ {
			case 0x7f:
				return i32c(int32(rng.Uint32()))
			case 0x7e:
				return i64c(int64(rng.Uint64()))
			case 0x7d:
				return binary.LittleEndian.AppendUint32([]byte{0x43}, rng.Uint32())
			}
			return binary.LittleEndian.AppendUint64([]byte{0x44}, rng.Uint64())
		}
		g := append([]byte{typ, mut}, constant()...)
		globals = append(globals, append(g, 0x0b))
		if mut == 1 {
			sets = append(sets, constant()...)
			sets = append(sets, 0x24)
			sets = append(sets, uleb(uint64(j))...)
		}
	}
	var writes []byte
	var segs [][]byte
	if pages > 0 {
		size := pages * 65536
		for range rng.IntN(5) {
			n := rng.IntN(64)
			if rng.IntN(4) == 0 {
				n = 0
			}
			off := rng.IntN(size - n + 1)
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			seg := append([]byte{0x00}, i32c(int32(off))...)
			seg = append(seg, 0x0b)
			segs = append(segs, append(append(seg, uleb(uint64(n))...), data...))
			// The run overwrites the segment too.
			writes = append(writes, i32c(int32(off&^7))...)
			writes = append(writes, i64c(int64(rng.Uint64()))...)
			writes = append(writes, 0x37, 0x00, 0x00) // i64.store align=0
		}
		for range 4 {
			writes = append(writes, i32c(int32(rng.IntN(size-8)))...)
			writes = append(writes, i64c(int64(rng.Uint64()))...)
			writes = append(writes, 0x37, 0x00, 0x00)
		}
	}
	body := append(vec(), sets...) // no locals
	body = append(body, writes...)
	body = append(body, 0x0b)
	out := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	out = append(out, section(1, vec(funcType([]api.ValueType{i64, i64, i64}, nil)))...)
	out = append(out, section(3, vec(uleb(0)))...)
	if pages >= 0 {
		out = append(out, section(5, vec(append([]byte{0x00}, uleb(uint64(pages))...)))...)
	}
	if len(globals) > 0 {
		out = append(out, section(6, vec(globals...))...)
	}
	exports := [][]byte{append(append(str("apply"), 0x00), uleb(0)...)}
	for j := range globals {
		if rng.IntN(3) == 0 {
			exports = append(exports, append(append(str("g"+string(rune('a'+j))), 0x03), uleb(uint64(j))...))
		}
	}
	if pages >= 0 && rng.IntN(2) == 0 {
		exports = append(exports, append(append(str("memory"), 0x02), 0x00))
	}
	out = append(out, section(7, vec(exports...))...)
	out = append(out, section(10, vec(append(uleb(uint64(len(body))), body...)))...)
	if len(segs) > 0 {
		out = append(out, section(11, vec(segs...))...)
	}
	return out
}

// state is an instance's memory and every global it exports (the
// contract's and the added ones), as the host reads them.
func state(t *testing.T, inst *instance, hasMemory bool) []byte {
	t.Helper()
	var b []byte
	if mem := inst.mod.Memory(); hasMemory {
		buf, _ := mem.Read(0, mem.Size())
		b = append(b, buf...)
	}
	for _, d := range inst.mod.ExportedFunctionDefinitions() {
		b = append(b, d.ExportNames()[0]...)
	}
	for i := range 64 {
		for _, name := range []string{globalExportPrefix + strconv.Itoa(i), "g" + string(rune('a'+i))} {
			if g := inst.mod.ExportedGlobal(name); g != nil {
				b = append(b, name...)
				b = binary.LittleEndian.AppendUint64(b, g.Get())
			}
		}
	}
	return b
}

// An instance reset after a run looks exactly as a new one of the same
// module: random module shapes, each run several times, the reused
// instance's memory and globals compared with a fresh instantiation's,
// with wazero's compiler and its interpreter (which keep globals apart).
func TestResetIsInstantiationForRandomShapes(t *testing.T) {
	for _, interp := range []bool{false, true} {
		e, err := NewEngine(Config{Interpreter: interp})
		if err != nil {
			t.Fatal(err)
		}
		resetIsInstantiation(t, e)
		_ = e.Close()
	}
}

func resetIsInstantiation(t *testing.T, e *Engine) {
	rng := rand.New(rand.NewPCG(34, 3))
	reusable := 0
	for i := range 300 {
		code := randomShape(rng)
		mod, err := e.Compile(code)
		if err != nil {
			t.Fatalf("shape %d: %v", i, err)
		}
		if mod.reuse == nil {
			continue
		}
		reusable++
		fresh, err := mod.take(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := state(t, fresh, mod.reuse.hasMemory)
		_ = fresh.mod.Close(context.Background())
		for run := range 3 {
			if err := mod.Run(context.Background(), &fakeHost{}, Action{Receiver: 1, Code: 1, Name: 1}); err != nil {
				t.Fatalf("shape %d run %d: %v", i, run, err)
			}
			mod.mu.Lock()
			n := len(mod.free)
			mod.mu.Unlock()
			if n == 0 {
				t.Fatalf("shape %d: the instance was not kept", i)
			}
			inst, _ := mod.take(context.Background())
			if got := state(t, inst, mod.reuse.hasMemory); !bytes.Equal(got, want) {
				t.Fatalf("shape %d after run %d: the reset instance differs from a new one", i, run)
			}
			mod.put(context.Background(), inst)
		}
	}
	if reusable < 250 {
		t.Fatalf("only %d of 300 shapes reusable", reusable)
	}
}
