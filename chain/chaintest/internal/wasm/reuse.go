package wasm

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// Reusing instances. nodeos runs every action in what looks like a fresh
// instance: memory at its initial size, zero but for the data segments,
// globals at their initial values. It does not allocate one for that (its
// wasm allocator resets the memory it has), and neither does this engine
// where it can: an instance that ended with its memory at the initial size,
// neither closed nor past its deadline, is reset — its memory zeroed and
// the data segments written again, every mutable global set back — and
// runs the module's next action. One that grew its memory (wazero cannot
// shrink it) is closed and the next run instantiates anew.
//
// Globals that are not exported cannot be set from outside wazero, so the
// code compiled is the contract's with one more export per mutable global
// (the names below). A contract cannot see its own exports; the code hash
// is the original code's.
//
// A module whose reset this file cannot describe exactly — a start
// function, imported globals, a data segment or global initialised by
// anything but a constant, an export of its own under the reserved names —
// is instantiated afresh for every run, as before.

// globalExportPrefix names the exports added for the mutable globals.
const globalExportPrefix = "__chaintest_global_"

// layout is what resetting an instance of a module restores.
type layout struct {
	hasMemory bool
	memBytes  uint32 // the memory's initial size
	segments  []segment
	globals   []globalInit
}

// segment is an active data segment: data written at offset.
type segment struct {
	offset uint32
	data   []byte
}

// globalInit is a mutable global, by the export that reaches it, and its
// initial value (the bits, as api.MutableGlobal.Set takes them).
type globalInit struct {
	export string
	value  uint64
}

// prepareReuse returns code with an export of every defined mutable
// global, and the layout an instance of it is reset to; ok is false when
// instances of code cannot be reset exactly (see above).
func prepareReuse(code []byte) (out []byte, l *layout, ok bool) {
	if len(code) < 8 || string(code[:4]) != "\x00asm" {
		return nil, nil, false
	}
	r := &wasmReader{b: code, pos: 8}
	type section struct {
		id         byte
		start, end int
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
		return nil, nil, false
	}
	l = &layout{}
	var mutable []uint64 // indices of the defined mutable globals
	hasExports := false
	for _, s := range sections {
		sr := &wasmReader{b: code[:s.end], pos: s.start}
		switch s.id {
		case 2: // imports: a global import is not resettable (nor linkable)
			for n := sr.uleb(); n > 0 && sr.err == nil; n-- {
				sr.skip(int(sr.uleb()))
				sr.skip(int(sr.uleb()))
				switch sr.byte() {
				case 0x00:
					sr.uleb()
				case 0x01:
					sr.byte()
					if sr.byte()&1 == 1 {
						sr.uleb()
					}
					sr.uleb()
				case 0x02:
					return nil, nil, false // an imported memory (refused by Compile anyway)
				default:
					return nil, nil, false
				}
			}
		case 5: // memory
			if sr.uleb() != 1 {
				return nil, nil, false
			}
			flags := sr.byte()
			pages := sr.uleb()
			if flags&1 == 1 {
				sr.uleb()
			}
			if flags > 1 || pages > MaxPages {
				return nil, nil, false
			}
			l.hasMemory, l.memBytes = true, uint32(pages)*65536
		case 6: // globals
			for j, n := uint64(0), sr.uleb(); j < n && sr.err == nil; j++ {
				typ := sr.byte()
				mut := sr.byte()
				v, ok := constExpr(sr, typ)
				if !ok || mut > 1 {
					return nil, nil, false
				}
				if mut == 1 {
					mutable = append(mutable, j)
					l.globals = append(l.globals, globalInit{export: globalExportPrefix + strconv.FormatUint(j, 10), value: v})
				}
			}
		case 7: // exports
			hasExports = true
			for n := sr.uleb(); n > 0 && sr.err == nil; n-- {
				size := int(sr.uleb())
				start := sr.pos
				sr.skip(size)
				if sr.err == nil && strings.HasPrefix(string(sr.b[start:sr.pos]), globalExportPrefix) {
					return nil, nil, false
				}
				sr.byte()
				sr.uleb()
			}
		case 8: // a start function runs at instantiation
			return nil, nil, false
		case 11: // data
			for n := sr.uleb(); n > 0 && sr.err == nil; n-- {
				if sr.uleb() != 0 { // memory 0, active: the only MVP form
					return nil, nil, false
				}
				off, ok := constExpr(sr, 0x7f)
				if !ok {
					return nil, nil, false
				}
				size := int(sr.uleb())
				start := sr.pos
				sr.skip(size)
				if sr.err != nil {
					return nil, nil, false
				}
				l.segments = append(l.segments, segment{offset: uint32(off), data: sr.b[start:sr.pos]})
			}
		}
		if sr.err != nil {
			return nil, nil, false
		}
	}
	if !hasExports {
		return nil, nil, false
	}
	for _, seg := range l.segments {
		if !l.hasMemory || uint64(seg.offset)+uint64(len(seg.data)) > uint64(l.memBytes) {
			return nil, nil, false // instantiation fails: nothing to reuse
		}
	}
	out = append(make([]byte, 0, len(code)+len(mutable)*24), code[:8]...)
	for _, s := range sections {
		body := code[s.start:s.end]
		if s.id == 7 && len(mutable) > 0 {
			sr := &wasmReader{b: body}
			n := sr.uleb()
			nb := appendUleb(nil, n+uint64(len(mutable)))
			nb = append(nb, body[sr.pos:]...)
			for k, g := range mutable {
				name := l.globals[k].export
				nb = appendUleb(nb, uint64(len(name)))
				nb = append(nb, name...)
				nb = append(nb, 0x03)
				nb = appendUleb(nb, g)
			}
			body = nb
		}
		out = append(out, s.id)
		out = appendUleb(out, uint64(len(body)))
		out = append(out, body...)
	}
	return out, l, true
}

// constExpr reads a constant initializer of type typ (i32, i64, f32, f64)
// and its end, returning the value's bits; ok is false for anything else
// (global.get, another type).
func constExpr(r *wasmReader, typ byte) (uint64, bool) {
	var v uint64
	switch op := r.byte(); {
	case op == 0x41 && typ == 0x7f:
		v = uint64(uint32(int32(r.sleb())))
	case op == 0x42 && typ == 0x7e:
		v = uint64(r.sleb())
	case op == 0x43 && typ == 0x7d:
		if r.pos+4 > len(r.b) {
			return 0, false
		}
		v = uint64(binary.LittleEndian.Uint32(r.b[r.pos:]))
		r.skip(4)
	case op == 0x44 && typ == 0x7c:
		if r.pos+8 > len(r.b) {
			return 0, false
		}
		v = binary.LittleEndian.Uint64(r.b[r.pos:])
		r.skip(8)
	default:
		return 0, false
	}
	return v, r.byte() == 0x0b && r.err == nil
}

// sleb reads a signed LEB128 of up to 64 bits.
func (r *wasmReader) sleb() int64 {
	var v int64
	for shift := uint(0); shift < 64; shift += 7 {
		c := r.byte()
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v
		}
	}
	r.err = errMalformed
	return 0
}
