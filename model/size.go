package model

// Binary sizes: the smallest encoding of each type. A decoder checks an
// array's claimed length against it (length × smallest element ≤ bytes
// left) before it allocates anything, so the bound must never exceed a real
// encoding; generated code and the dynamic decoder (abicodec) take it from
// here, so that both refuse the same lengths.
//
// A struct's bound is computed once, when the model is resolved, and kept
// in Struct.MinSize: computed afresh on every use, following every path
// through the struct graph, it took time exponential in the depth of an
// ABI whose structs each hold several fields of the next (a 4 KB ABI of
// twelve levels of ten fields took minutes to generate, and as long to
// decode one empty array of it dynamically).

// maxMinSize caps every bound at 1 MiB: no input is that large where the
// bound decides anything, and products of fixed-array lengths stay far
// from overflowing an int.
const maxMinSize = 1 << 20

// MinSize returns the smallest binary encoding of a value of t, capped at
// 1 MiB: a lower bound for array length checks. Arrays, optionals and
// variants take at least one byte (a length, a flag, an index).
func MinSize(t *Type) int {
	t = t.Resolved()
	switch t.Kind {
	case Builtin:
		if i, ok := builtinIndex[t.Name]; ok {
			return builtinTable[i].minSize
		}
		return 0
	case StructKind:
		return t.Struct.MinSize
	case FixedArray:
		return capMul(t.Len, MinSize(t.Elem))
	}
	return 1
}

// capMul is n × size, capped at maxMinSize.
func capMul(n, size int) int {
	if size > 0 && n > maxMinSize/size {
		return maxMinSize
	}
	return min(n*size, maxMinSize)
}

// computeMinSizes sets every struct's MinSize: its fields' (its base's
// included) summed, capped. checkFiniteSize has ruled out a struct that
// contains itself by value, so the graph walked is acyclic but for fixed
// arrays of length 0, which contribute nothing.
func computeMinSizes(m *Model) {
	const (
		unvisited = iota
		inProgress
		done
	)
	state := map[*Struct]int{}
	var structSize func(s *Struct) int
	var typeSize func(t *Type) int
	typeSize = func(t *Type) int {
		t = t.Resolved()
		switch t.Kind {
		case StructKind:
			return structSize(t.Struct)
		case FixedArray:
			if t.Len == 0 {
				return 0
			}
			return capMul(t.Len, typeSize(t.Elem))
		}
		return MinSize(t)
	}
	structSize = func(s *Struct) int {
		switch state[s] {
		case done:
			return s.MinSize
		case inProgress:
			return 0 // unreachable after checkFiniteSize
		}
		state[s] = inProgress
		n := 0
		for _, f := range s.AllFields() {
			n = min(n+typeSize(f.Type), maxMinSize)
		}
		s.MinSize = n
		state[s] = done
		return n
	}
	for _, s := range m.Structs {
		structSize(s)
	}
}
