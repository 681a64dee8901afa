package wasm

import (
	"errors"
	"fmt"
)

// MaxCallDepth is nodeos's (eos-vm's) bound on nested wasm calls.
const MaxCallDepth = 250

// depthGlobal is the export under which instrumented code keeps its call
// depth.
const depthGlobal = "__chaintest_call_depth"

// Call depth: wazero's own bound is a 400 MB stack, so a contract that
// recurses a thousand levels deep would run here and fail on a node. The
// code is instrumented instead, as nodeos's injection once did: a new
// mutable global counts the depth; each function increments it on entry
// and traps (unreachable) past MaxCallDepth, and decrements it on the way
// out. The original body goes inside a block of the function's result type,
// so every exit — falling off the end, a branch to the function's label —
// reaches the decrement, and each return becomes a branch to that block.
// After a trap, Run reads the exported global to tell a depth overflow from
// the contract's own unreachable.

type wasmReader struct {
	b   []byte
	pos int
	err error
}

var errMalformed = errors.New("malformed module")

func (r *wasmReader) byte() byte {
	if r.pos >= len(r.b) {
		r.err = errMalformed
		return 0
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

func (r *wasmReader) uleb() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.err = errMalformed
	return 0
}

func (r *wasmReader) skip(n int) {
	if n < 0 || r.pos+n > len(r.b) {
		r.err = errMalformed
		return
	}
	r.pos += n
}

func (r *wasmReader) skipSleb() {
	for range 10 {
		if r.byte()&0x80 == 0 {
			return
		}
	}
	r.err = errMalformed
}

// instrumentDepth returns code with the call-depth count, or an error when
// it uses instructions past the MVP the rewriter does not know (the code
// then runs with wazero's bound only).
func instrumentDepth(code []byte) ([]byte, error) {
	if len(code) < 8 || string(code[:4]) != "\x00asm" {
		return nil, errMalformed
	}
	r := &wasmReader{b: code, pos: 8}
	type section struct {
		id         byte
		start, end int // the contents
	}
	var sections []section
	for r.pos < len(code) && r.err == nil {
		id := r.byte()
		size := int(r.uleb())
		start := r.pos
		r.skip(size)
		sections = append(sections, section{id, start, r.pos})
	}
	if r.err != nil {
		return nil, r.err
	}
	// Types (for each function's results), imported function and global
	// counts, each defined function's type.
	var typeResults [][]byte
	importedFuncs, importedGlobals, definedGlobals := 0, 0, 0
	var funcTypes []uint64
	for _, s := range sections {
		sr := &wasmReader{b: code[:s.end], pos: s.start}
		switch s.id {
		case 1:
			for n := sr.uleb(); n > 0 && sr.err == nil; n-- {
				if sr.byte() != 0x60 {
					return nil, errMalformed
				}
				sr.skip(int(sr.uleb()))
				results := int(sr.uleb())
				typeResults = append(typeResults, sr.b[sr.pos:min(sr.pos+results, len(sr.b))])
				sr.skip(results)
			}
		case 2:
			for n := sr.uleb(); n > 0 && sr.err == nil; n-- {
				sr.skip(int(sr.uleb()))
				sr.skip(int(sr.uleb()))
				switch sr.byte() {
				case 0x00:
					sr.uleb()
					importedFuncs++
				case 0x01: // table
					sr.byte()
					if sr.byte()&1 == 1 {
						sr.uleb()
					}
					sr.uleb()
				case 0x02: // memory
					if sr.byte()&1 == 1 {
						sr.uleb()
					}
					sr.uleb()
				case 0x03:
					sr.skip(2)
					importedGlobals++
				}
			}
		case 3:
			for n := sr.uleb(); n > 0 && sr.err == nil; n-- {
				funcTypes = append(funcTypes, sr.uleb())
			}
		case 6:
			definedGlobals = int(sr.uleb())
		}
		if sr.err != nil {
			return nil, sr.err
		}
	}
	_ = importedFuncs
	depthIndex := uint64(importedGlobals + definedGlobals)
	out := append([]byte(nil), code[:8]...)
	emit := func(id byte, body []byte) {
		out = append(out, id)
		out = appendUleb(out, uint64(len(body)))
		out = append(out, body...)
	}
	newGlobal := []byte{0x7f, 0x01, 0x41, 0x00, 0x0b} // mutable i32 = 0
	wroteGlobal := false
	for _, s := range sections {
		body := code[s.start:s.end]
		// The global section, if the module has none, goes before exports
		// (section 7) in id order.
		if !wroteGlobal && s.id > 6 {
			emit(6, append(appendUleb(nil, 1), newGlobal...))
			wroteGlobal = true
		}
		switch {
		case s.id == 6:
			sr := &wasmReader{b: body}
			n := sr.uleb()
			nb := appendUleb(nil, n+1)
			nb = append(nb, body[sr.pos:]...)
			emit(6, append(nb, newGlobal...))
			wroteGlobal = true
			continue
		case s.id == 7:
			sr := &wasmReader{b: body}
			n := sr.uleb()
			nb := appendUleb(nil, n+1)
			nb = append(nb, body[sr.pos:]...)
			nb = appendUleb(nb, uint64(len(depthGlobal)))
			nb = append(nb, depthGlobal...)
			nb = append(nb, 0x03)
			emit(7, appendUleb(nb, depthIndex))
			continue
		case s.id == 10:
			nb, err := instrumentCode(body, funcTypes, typeResults, depthIndex)
			if err != nil {
				return nil, err
			}
			emit(10, nb)
			continue
		}
		emit(s.id, body)
	}
	hasExports := false
	for _, s := range sections {
		hasExports = hasExports || s.id == 7
	}
	if !hasExports {
		return nil, errMalformed // a contract exports apply
	}
	return out, nil
}

func appendUleb(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func instrumentCode(body []byte, funcTypes []uint64, typeResults [][]byte, depth uint64) ([]byte, error) {
	r := &wasmReader{b: body}
	n := int(r.uleb())
	if n != len(funcTypes) {
		return nil, errMalformed
	}
	out := appendUleb(nil, uint64(n))
	g := appendUleb(nil, depth)
	for i := range n {
		size := int(r.uleb())
		start := r.pos
		r.skip(size)
		if r.err != nil {
			return nil, r.err
		}
		if funcTypes[i] >= uint64(len(typeResults)) {
			return nil, errMalformed
		}
		fn, err := instrumentFunc(body[start:r.pos], typeResults[funcTypes[i]], g)
		if err != nil {
			return nil, fmt.Errorf("function %d: %w", i, err)
		}
		out = appendUleb(out, uint64(len(fn)))
		out = append(out, fn...)
	}
	return out, nil
}

func instrumentFunc(fn, results []byte, g []byte) ([]byte, error) {
	r := &wasmReader{b: fn}
	for n := r.uleb(); n > 0 && r.err == nil; n-- { // locals
		r.uleb()
		r.byte()
	}
	if r.err != nil {
		return nil, r.err
	}
	out := append([]byte(nil), fn[:r.pos]...)
	// depth++; if depth > MaxCallDepth: unreachable
	out = append(out, 0x23)
	out = append(out, g...)
	out = append(out, 0x41, 0x01, 0x6a, 0x24)
	out = append(out, g...)
	out = append(out, 0x23)
	out = append(out, g...)
	out = append(out, 0x41)
	out = appendSleb32(out, MaxCallDepth)
	out = append(out, 0x4b, 0x04, 0x40, 0x00, 0x0b) // i32.gt_u if unreachable end
	// block (result) … end
	switch len(results) {
	case 0:
		out = append(out, 0x02, 0x40)
	case 1:
		out = append(out, 0x02, results[0])
	default:
		return nil, errors.New("multi-value results")
	}
	nest := 0 // blocks open inside the original body
	for {
		if r.err != nil {
			return nil, r.err
		}
		if r.pos >= len(fn) {
			return nil, errMalformed
		}
		at := r.pos
		op := r.byte()
		switch {
		case op == 0x02 || op == 0x03 || op == 0x04:
			r.skipSleb()
			nest++
		case op == 0x0b:
			if nest == 0 { // the function's end: close the wrapper
				out = append(out, 0x0b)
				// depth--
				out = append(out, 0x23)
				out = append(out, g...)
				out = append(out, 0x41, 0x01, 0x6b, 0x24)
				out = append(out, g...)
				out = append(out, 0x0b)
				if r.pos != len(fn) {
					return nil, errMalformed
				}
				return out, nil
			}
			nest--
		case op == 0x0f: // return → br to the wrapper
			out = append(out, 0x0c)
			out = appendUleb(out, uint64(nest))
			continue
		case op == 0x0c || op == 0x0d || op == 0x10 || (op >= 0x20 && op <= 0x24):
			r.uleb()
		case op == 0x0e:
			for k := r.uleb(); k > 0 && r.err == nil; k-- {
				r.uleb()
			}
			r.uleb()
		case op == 0x11:
			r.uleb()
			r.byte()
		case op >= 0x28 && op <= 0x3e:
			r.uleb()
			r.uleb()
		case op == 0x3f || op == 0x40:
			r.byte()
		case op == 0x41 || op == 0x42:
			r.skipSleb()
		case op == 0x43:
			r.skip(4)
		case op == 0x44:
			r.skip(8)
		case op == 0x00 || op == 0x01 || op == 0x05 || op == 0x1a || op == 0x1b || (op >= 0x45 && op <= 0xc4):
		case op == 0xfc:
			if sub := r.uleb(); sub > 7 {
				return nil, fmt.Errorf("instruction 0xfc %d", sub)
			}
		default:
			return nil, fmt.Errorf("instruction 0x%02x", op)
		}
		out = append(out, fn[at:r.pos]...)
	}
}

func appendSleb32(b []byte, v int32) []byte {
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
