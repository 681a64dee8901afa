package wasm

import (
	"github.com/tetratelabs/wazero/api"
)

// The nodeos intrinsics (module "env"), by name and wasm signature, as
// spring's runtimes register them. fn nil: chaintest does not implement it,
// and a call traps naming it.

type intrinsic struct {
	name            string
	params, results []api.ValueType
	fn              func(c *call, stack []uint64)
}

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
	f32 = api.ValueTypeF32
	f64 = api.ValueTypeF64
)

// sig reads a signature: i i32, I i64, f f32, F f64.
func sig(s string) []api.ValueType {
	out := make([]api.ValueType, len(s))
	for i, r := range s {
		out[i] = map[rune]api.ValueType{'i': i32, 'I': i64, 'f': f32, 'F': f64}[r]
	}
	return out
}

var intrinsics []intrinsic

var intrinsicByName = map[string]*intrinsic{}

// def registers an intrinsic: its name, params, results and implementation
// (nil: not implemented).
func def(name, params, results string, fn func(c *call, stack []uint64)) {
	intrinsics = append(intrinsics, intrinsic{name: name, params: sig(params), results: sig(results), fn: fn})
}

func init() {
	defineSystem()
	defineDatabase()
	defineCrypto()
	definePrivileged()
	defineBuiltins()
	defineFloat128()
	for i := range intrinsics {
		intrinsicByName[intrinsics[i].name] = &intrinsics[i]
	}
}

// Implemented reports whether chaintest implements the intrinsic name, and
// whether nodeos has it at all.
func Implemented(name string) (implemented, exists bool) {
	in, ok := intrinsicByName[name]
	return ok && in.fn != nil, ok
}

// Intrinsics lists every intrinsic's name, in registration order.
func Intrinsics() []string {
	out := make([]string, len(intrinsics))
	for i, in := range intrinsics {
		out[i] = in.name
	}
	return out
}
