package wasm

import "github.com/tetratelabs/wazero/api"

// A minimal WebAssembly module writer for tests: env imports, one memory
// (1 page), one mutable i32 global, an exported apply(i64, i64, i64) and
// other functions, bodies as raw instruction bytes.

type testFunc struct {
	params, results []api.ValueType
	locals          []api.ValueType
	body            []byte // instructions, without the final end
}

type testModule struct {
	imports []string // env intrinsic names, function indices 0…
	funcs   []testFunc
	data    []byte // at address 1024
	// globals after global 0, each an encoded global (type, mutability,
	// initializer and end).
	globals [][]byte
}

func uleb(v uint64) []byte { return appendUleb(nil, v) }

func sleb(v int64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func vec(items ...[]byte) []byte {
	out := uleb(uint64(len(items)))
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

func str(s string) []byte { return append(uleb(uint64(len(s))), s...) }

func section(id byte, body []byte) []byte {
	return append(append([]byte{id}, uleb(uint64(len(body)))...), body...)
}

func funcType(params, results []api.ValueType) []byte {
	b := []byte{0x60}
	b = append(b, vec(types(params)...)...)
	return append(b, vec(types(results)...)...)
}

func types(ts []api.ValueType) [][]byte {
	out := make([][]byte, len(ts))
	for i, t := range ts {
		out[i] = []byte{t}
	}
	return out
}

func (m *testModule) bytes() []byte {
	var typeSec, importSec, funcSec, codeSec [][]byte
	for _, name := range m.imports {
		in := intrinsicByName[name]
		importSec = append(importSec, append(append(append(str("env"), str(name)...), 0x00), uleb(uint64(len(typeSec)))...))
		typeSec = append(typeSec, funcType(in.params, in.results))
	}
	for _, f := range m.funcs {
		funcSec = append(funcSec, uleb(uint64(len(typeSec))))
		typeSec = append(typeSec, funcType(f.params, f.results))
		var locals [][]byte
		for _, l := range f.locals {
			locals = append(locals, []byte{1, l})
		}
		body := append(vec(locals...), f.body...)
		body = append(body, 0x0b)
		codeSec = append(codeSec, append(uleb(uint64(len(body))), body...))
	}
	out := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	out = append(out, section(1, vec(typeSec...))...)
	if len(importSec) > 0 {
		out = append(out, section(2, vec(importSec...))...)
	}
	out = append(out, section(3, vec(funcSec...))...)
	out = append(out, section(5, vec([]byte{0x00, 0x01}))...)                                                // memory: min 1 page
	out = append(out, section(6, vec(append([][]byte{{0x7f, 0x01, 0x41, 0x00, 0x0b}}, m.globals...)...))...) // global 0: mutable i32 = 0
	applyIndex := uint64(len(m.imports))
	out = append(out, section(7, vec(append(append(str("apply"), 0x00), uleb(applyIndex)...)))...)
	out = append(out, section(10, vec(codeSec...))...)
	if len(m.data) > 0 {
		seg := append([]byte{0x00, 0x41}, sleb(1024)...)
		seg = append(seg, 0x0b)
		seg = append(seg, uleb(uint64(len(m.data)))...)
		seg = append(seg, m.data...)
		out = append(out, section(11, vec(seg))...)
	}
	return out
}

// apply is the signature of the entry point.
func applyFunc(body ...[]byte) testFunc {
	var b []byte
	for _, x := range body {
		b = append(b, x...)
	}
	return testFunc{params: []api.ValueType{i64, i64, i64}, body: b}
}

// Instructions.
func i32c(v int32) []byte   { return append([]byte{0x41}, sleb(int64(v))...) }
func i64c(v int64) []byte   { return append([]byte{0x42}, sleb(v)...) }
func callf(i int) []byte    { return append([]byte{0x10}, uleb(uint64(i))...) }
func localGet(i int) []byte { return append([]byte{0x20}, uleb(uint64(i))...) }

var (
	opDrop        = []byte{0x1a}
	opI32Store    = []byte{0x36, 0x02, 0x00}
	opI32Load     = []byte{0x28, 0x02, 0x00}
	opI32Eqz      = []byte{0x45}
	opGlobalGet0  = []byte{0x23, 0x00}
	opGlobalSet0  = []byte{0x24, 0x00}
	opMemoryGrow  = []byte{0x40, 0x00}
	opUnreachable = []byte{0x00}
	opLoopForever = []byte{0x03, 0x40, 0x0c, 0x00, 0x0b} // loop br 0 end
)
