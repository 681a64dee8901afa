package antelope

// Helpers for the lists inside this package's fixed types (transactions,
// actions); generated code emits its own loops.

func appendBinarySlice[T BinaryAppender](b []byte, list []T) ([]byte, error) {
	b, err := AppendLength(b, len(list))
	if err != nil {
		return b, err
	}
	for i, v := range list {
		if b, err = v.AppendBinary(b); err != nil {
			return b, AtIndex(err, i)
		}
	}
	return b, nil
}

// decodeBinarySlice reads a length-prefixed list; minSize is the smallest
// encoding of one element, so that a length the input cannot hold is refused
// before anything is allocated.
func decodeBinarySlice[T any, P interface {
	*T
	BinaryDecodable
}](d *Decoder, what string, minSize int) ([]T, error) {
	n, err := d.Length(what, minSize)
	if err != nil {
		return nil, AtField(err, what)
	}
	out := make([]T, n)
	for i := range out {
		if err := P(&out[i]).DecodeBinary(d); err != nil {
			return nil, AtField(AtIndex(err, i), what)
		}
	}
	return out, nil
}

func appendJSONSlice[T JSONAppender](b []byte, list []T) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = v.AppendJSON(b); err != nil {
			return b, AtIndex(err, i)
		}
	}
	return append(b, ']'), nil
}

func decodeJSONSlice[T any, P interface {
	*T
	JSONDecodable
}](r *JSONReader) ([]T, error) {
	return decodeJSONSliceOf(r, func(r *JSONReader) (T, error) {
		var v T
		err := P(&v).DecodeJSON(r)
		return v, err
	})
}

func decodeJSONSliceOf[T any](r *JSONReader, one func(*JSONReader) (T, error)) ([]T, error) {
	n := r.ArrayLen()
	if err := r.BeginArray(); err != nil {
		return nil, err
	}
	out := make([]T, 0, n)
	for i := 0; ; i++ {
		ok, err := r.NextElement()
		if err != nil || !ok {
			return out, err
		}
		if i >= MaxArrayElements {
			return nil, r.errorf("more than " + itoa(MaxArrayElements) + " elements")
		}
		v, err := one(r)
		if err != nil {
			return nil, AtIndex(err, i)
		}
		out = append(out, v)
	}
}
