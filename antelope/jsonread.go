package antelope

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// JSONKind is the kind of the next JSON value.
type JSONKind uint8

// The kinds of JSON value JSONReader.Peek reports.
const (
	JSONInvalid JSONKind = iota // not the start of a JSON value, or end of input
	JSONNull
	JSONBool
	JSONNumber
	JSONString
	JSONArray
	JSONObject
)

// String names the kind, for messages: "string", "object"….
func (k JSONKind) String() string {
	return [...]string{"invalid JSON", "null", "boolean", "number", "string", "array", "object"}[k]
}

// JSONReader reads JSON values one token at a time, without reflection and
// without building a tree. Objects and arrays are read with loops:
//
//	if err := r.BeginObject(); err != nil { … }
//	for {
//		key, ok, err := r.NextKey()
//		if err != nil || !ok { … }
//		switch string(key) { … }
//	}
//
// A JSONReader never panics, and its errors carry the byte offset.
type JSONReader struct {
	data    []byte
	pos     int
	depth   int
	scratch []byte
	// first is set after '{' or '[' until the first member is read, so that
	// NextKey and NextElement know whether a comma must come first.
	first bool
}

// NewJSONReader returns a reader over one JSON text.
func NewJSONReader(data []byte) *JSONReader { return &JSONReader{data: data} }

// Reset makes r read data from its start, keeping its buffer for escaped
// strings. A JSONReader declared as a variable and Reset stays on the stack,
// where NewJSONReader's escapes to the heap.
func (r *JSONReader) Reset(data []byte) { *r = JSONReader{data: data, scratch: r.scratch[:0]} }

// Offset is the byte offset of the reader in its input.
func (r *JSONReader) Offset() int { return r.pos }

// Not inlined: an error path, called from every field of every generated
// codec; inlining it there cost 40 % of the compile time of bindings
// (golden/: 67 → 40 CPU-s) and gained nothing at run time.
//
//go:noinline
func (r *JSONReader) errorf(msg string) error { return &JSONError{Offset: r.pos, Msg: msg} }

func (r *JSONReader) skipSpace() {
	if r.pos < len(r.data) && r.data[r.pos] > ' ' {
		return // the usual case, compact JSON: inlined
	}
	r.skipSpaceSlow()
}

// Not inlined: Peek, which inlines into generated decoders, would carry
// this loop into each of them.
//
//go:noinline
func (r *JSONReader) skipSpaceSlow() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// Peek reports the kind of the next value without consuming it.
func (r *JSONReader) Peek() JSONKind {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return JSONInvalid
	}
	// A table, not a switch: small enough to inline in every generated
	// decoder, which peeks before each value.
	return jsonKindOf[r.data[r.pos]]
}

// jsonKindOf is the kind of value each byte starts.
var jsonKindOf = [256]JSONKind{
	'n': JSONNull, 't': JSONBool, 'f': JSONBool, '"': JSONString, '[': JSONArray, '{': JSONObject, '-': JSONNumber,
	'0': JSONNumber, '1': JSONNumber, '2': JSONNumber, '3': JSONNumber, '4': JSONNumber,
	'5': JSONNumber, '6': JSONNumber, '7': JSONNumber, '8': JSONNumber, '9': JSONNumber,
}

// Finish reports an error unless only white space remains.
func (r *JSONReader) Finish() error {
	r.skipSpace()
	if r.pos != len(r.data) {
		return r.errorf("unexpected data after the JSON value")
	}
	return nil
}

// Enter marks the start of a nested struct or variant; it fails beyond
// MaxDepth levels. Pair every successful Enter with Leave.
func (r *JSONReader) Enter() error {
	if r.depth >= MaxDepth {
		return r.errorf("nesting deeper than " + strconv.Itoa(MaxDepth) + " levels")
	}
	r.depth++
	return nil
}

// Leave marks the end of a nested struct or variant.
func (r *JSONReader) Leave() { r.depth-- }

func (r *JSONReader) literal(word string) bool {
	if len(r.data)-r.pos >= len(word) && string(r.data[r.pos:r.pos+len(word)]) == word {
		end := r.pos + len(word)
		if end < len(r.data) && isIdentByte(r.data[end]) {
			return false
		}
		r.pos = end
		return true
	}
	return false
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// Null consumes a null and reports true, or reports false and consumes
// nothing.
func (r *JSONReader) Null() bool {
	r.skipSpace()
	return r.literal("null")
}

// BeginObject consumes '{'.
func (r *JSONReader) BeginObject() error {
	if r.Peek() != JSONObject {
		return r.unexpected("an object")
	}
	r.pos++
	r.first = true
	return nil
}

// NextKey reads the next member name of an object, and the colon after it.
// ok is false, with the closing '}' consumed, when the object has no more
// members. The key aliases the input or an internal buffer: it is valid only
// until the next call on r.
func (r *JSONReader) NextKey() (key []byte, ok bool, err error) {
	if ok, err = r.beforeKey(); !ok {
		return nil, false, err
	}
	return r.key()
}

// JSONKey is a member name as a decoder expects to meet it, for
// NextKeyOr; make one with NewJSONKey.
type JSONKey struct {
	name  string
	plain bool // JSON prints name as it is, quoted: the shortcut applies
}

// NewJSONKey is the key name, which NextKeyOr takes when the input holds
// it as the chain API prints it: quoted, then ':', with no white space. A
// name that JSON would escape (a quote, a backslash, a control character,
// invalid UTF-8) gets no shortcut: NextKeyOr then reads the key as NextKey
// does. It allocates nothing for names of up to 60 bytes, since every
// generated package makes one per field when the program starts.
func NewJSONKey(name string) JSONKey {
	var buf [64]byte
	q := AppendStringJSON(buf[:0], name)
	return JSONKey{name: name, plain: len(q) == len(name)+2 && string(q[1:len(q)-1]) == name}
}

// NextKeyOr is NextKey for a decoder that expects the member likely next.
// When the input holds likely's text exactly, it is consumed without being
// scanned as a string, and the key returned is the name within it;
// otherwise NextKey reads the key. Generated decoders pass the field after
// the one just read: the next key of every object a chain API prints.
func (r *JSONReader) NextKeyOr(likely JSONKey) (key []byte, ok bool, err error) {
	if ok, err = r.beforeKey(); !ok {
		return nil, false, err
	}
	if n := len(likely.name); likely.plain && len(r.data)-r.pos >= n+3 && r.data[r.pos] == '"' &&
		r.data[r.pos+n+1] == '"' && r.data[r.pos+n+2] == ':' && string(r.data[r.pos+1:r.pos+n+1]) == likely.name {
		key = r.data[r.pos+1 : r.pos+n+1]
		r.pos += n + 3
		return key, true, nil
	}
	return r.key()
}

// beforeKey reads up to the next member name of an object: false, with the
// closing '}' consumed, when the object has no more members.
func (r *JSONReader) beforeKey() (bool, error) {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return false, r.errorf("unexpected end of input inside an object")
	}
	if r.data[r.pos] == '}' {
		r.pos++
		r.first = false
		return false, nil
	}
	if !r.first {
		if r.data[r.pos] != ',' {
			return false, r.errorf("expected ',' or '}' in an object")
		}
		r.pos++
		r.skipSpace()
	}
	r.first = false
	return true, nil
}

// key reads a member name and the colon after it.
func (r *JSONReader) key() (key []byte, ok bool, err error) {
	if r.pos >= len(r.data) || r.data[r.pos] != '"' {
		return nil, false, r.errorf("expected a string as object key")
	}
	key, err = r.stringBytes()
	if err != nil {
		return nil, false, err
	}
	r.skipSpace()
	if r.pos >= len(r.data) || r.data[r.pos] != ':' {
		return nil, false, r.errorf("expected ':' after object key")
	}
	r.pos++
	return key, true, nil
}

// BeginArray consumes '['.
func (r *JSONReader) BeginArray() error {
	if r.Peek() != JSONArray {
		return r.unexpected("an array")
	}
	r.pos++
	r.first = true
	return nil
}

// MaxArrayPrealloc is the most elements ArrayLen reports: a decoder sizes its
// slice once for arrays up to this length and grows it beyond, so a hostile
// "[{},{},…]" cannot make it reserve much more than its input's size.
const MaxArrayPrealloc = 4096

// ArrayLen counts the elements of the array that starts at the reader, up
// to MaxArrayPrealloc, without consuming anything, so that a decoder can
// allocate its slice once. It reports 0 when the next value is not a
// well-formed array; reading it then reports the error.
func (r *JSONReader) ArrayLen() int {
	c := *r
	// Strings met while counting unescape into r's buffer (nothing in it is
	// valid across calls), which keeps any growth.
	defer func() { r.scratch = c.scratch[:0] }()
	if c.BeginArray() != nil {
		return 0
	}
	n := 0
	for ; n < MaxArrayPrealloc; n++ {
		ok, err := c.NextElement()
		if err != nil || !ok {
			if err != nil {
				return 0
			}
			return n
		}
		if c.Skip() != nil {
			return 0
		}
	}
	return n
}

// NextElement reports whether the array has another element, consuming the
// comma before it; at the end it consumes the closing ']' and reports false.
func (r *JSONReader) NextElement() (bool, error) {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return false, r.errorf("unexpected end of input inside an array")
	}
	if r.data[r.pos] == ']' {
		r.pos++
		r.first = false
		return false, nil
	}
	if !r.first {
		if r.data[r.pos] != ',' {
			return false, r.errorf("expected ',' or ']' in an array")
		}
		r.pos++
	}
	r.first = false
	return true, nil
}

func (r *JSONReader) unexpected(want string) error {
	k := r.Peek()
	if k == JSONInvalid {
		if r.pos >= len(r.data) {
			return r.errorf("expected " + want + ", found end of input")
		}
		return r.errorf("expected " + want + ", found invalid JSON")
	}
	return r.errorf("expected " + want + ", found " + k.String())
}

// StringBytes reads a string and returns its unescaped bytes, which alias the
// input or an internal buffer and are valid only until the next call on r.
func (r *JSONReader) StringBytes() ([]byte, error) {
	if r.Peek() != JSONString {
		return nil, r.unexpected("a string")
	}
	return r.stringBytes()
}

// String reads a string value.
func (r *JSONReader) String() (string, error) {
	b, err := r.StringBytes()
	return string(b), err
}

// stringBytes reads a string starting at the opening quote.
func (r *JSONReader) stringBytes() ([]byte, error) {
	start := r.pos
	r.pos++
	i := plainRun(r.data, r.pos)
	if i < len(r.data) && r.data[i] == '"' {
		r.pos = i + 1
		return r.data[start+1 : i], nil
	}
	// Escapes: unescape into the scratch buffer. Escapes only shorten the
	// text, so its raw length is enough; the first growth takes what is
	// left of the input (up to 64 KiB), so that a reader allocates once for
	// all the strings of a value.
	if n := rawStringEnd(r.data, i) - start; cap(r.scratch) < n {
		r.scratch = make([]byte, 0, max(n, 2*cap(r.scratch), min(len(r.data)-start, 64<<10)))
	}
	buf, err := r.unescape(append(r.scratch[:0], r.data[start+1:i]...), i)
	if err != nil {
		return nil, err
	}
	r.scratch = buf
	return buf, nil
}

// rawStringEnd returns the offset just past the quote that closes the
// string whose text continues at i, or len(b) when it is unterminated.
func rawStringEnd(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return len(b)
}

// unescape appends the rest of a string, from offset i (at a backslash or
// a byte that ends the plain run), to buf, and leaves r just past the
// closing quote.
func (r *JSONReader) unescape(buf []byte, i int) ([]byte, error) {
	for i < len(r.data) {
		c := r.data[i]
		switch {
		case c == '"':
			r.pos = i + 1
			return buf, nil
		case c < 0x20:
			r.pos = i
			return nil, r.errorf("control character in a string")
		case c != '\\':
			j := plainRun(r.data, i+1)
			buf = append(buf, r.data[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(r.data) {
			break
		}
		e := r.data[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r1, ok := hex4(r.data, i)
			if !ok {
				r.pos = i
				return nil, r.errorf("invalid \\u escape in a string")
			}
			i += 4
			if utf16.IsSurrogate(r1) {
				if r2, ok := hex4(r.data, i+2); ok && i+1 < len(r.data) && r.data[i] == '\\' && r.data[i+1] == 'u' {
					if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
						i += 6
						buf = utf8.AppendRune(buf, dec)
						continue
					}
				}
				r1 = utf8.RuneError
			}
			buf = utf8.AppendRune(buf, r1)
		default:
			r.pos = i - 2
			return nil, r.errorf("invalid escape in a string")
		}
	}
	r.pos = len(r.data)
	return nil, r.errorf("unterminated string")
}

// plainRun returns the offset of the first byte at or after i that is a
// quote, a backslash or a control character (or len(b)): eight bytes per
// step, as a string's text is most of a JSON page.
func plainRun(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// The high bit of each byte that is below 0x20, or equal to '"' or
		// '\\' (a byte XOR the quote is zero there): the classic zero-byte
		// test, exact for the lowest flagged byte.
		q, s := w^(ones*'"'), w^(ones*'\\')
		m := (w-ones*0x20)&^w | (q-ones)&^q | (s-ones)&^s
		if m &= highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

func hex4(b []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(b) {
		return 0, false
	}
	var v rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// number reads the text of a JSON number, checking its syntax.
func (r *JSONReader) number() ([]byte, error) {
	start := r.pos
	i := r.pos
	if i < len(r.data) && r.data[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(r.data) && r.data[i] >= '0' && r.data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intStart := i
	if n := digits(); n == 0 || (n > 1 && r.data[intStart] == '0') {
		return nil, r.errorf("invalid number")
	}
	if i < len(r.data) && r.data[i] == '.' {
		i++
		if digits() == 0 {
			return nil, r.errorf("invalid number")
		}
	}
	if i < len(r.data) && (r.data[i] == 'e' || r.data[i] == 'E') {
		i++
		if i < len(r.data) && (r.data[i] == '+' || r.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, r.errorf("invalid number")
		}
	}
	r.pos = i
	return r.data[start:i], nil
}

// Scalar reads a number or a string and returns its text: the JSON number as
// written, or the unescaped string contents. Antelope JSON writes 64-bit and
// wider integers, and floats, as either, so readers of those types use it.
// isString tells which it was.
func (r *JSONReader) Scalar(want string) (text []byte, isString bool, err error) {
	switch r.Peek() {
	case JSONNumber:
		t, err := r.number()
		return t, false, err
	case JSONString:
		t, err := r.stringBytes()
		return t, true, err
	}
	return nil, false, r.unexpected(want)
}

// Skip consumes one value of any kind, however deeply nested, without
// recursion, checking that it is well-formed JSON.
func (r *JSONReader) Skip() error {
	var stackBuf [128]byte
	closers := stackBuf[:0] // the closing bracket of each open container
	for {
		switch r.Peek() {
		case JSONNull:
			if !r.literal("null") {
				return r.errorf("invalid literal")
			}
		case JSONBool:
			if !r.literal("true") && !r.literal("false") {
				return r.errorf("invalid literal")
			}
		case JSONNumber:
			if _, err := r.number(); err != nil {
				return err
			}
		case JSONString:
			if _, err := r.stringBytes(); err != nil {
				return err
			}
		case JSONArray:
			r.pos++
			r.first = true
			closers = append(closers, ']')
		case JSONObject:
			r.pos++
			r.first = true
			closers = append(closers, '}')
		default:
			return r.unexpected("a value")
		}
		// Close every container that ends here, then position the reader
		// at the next value to skip.
		for len(closers) > 0 {
			r.skipSpace()
			if r.pos >= len(r.data) {
				return r.errorf("unexpected end of input")
			}
			c, closer := r.data[r.pos], closers[len(closers)-1]
			if c == closer {
				r.pos++
				r.first = false
				closers = closers[:len(closers)-1]
				continue
			}
			if !r.first {
				if c != ',' {
					return r.errorf("expected ',' or '" + string(closer) + "'")
				}
				r.pos++
				r.skipSpace()
			}
			r.first = false
			if closer == '}' {
				if r.pos >= len(r.data) || r.data[r.pos] != '"' {
					return r.errorf("expected a string as object key")
				}
				if _, err := r.stringBytes(); err != nil {
					return err
				}
				r.skipSpace()
				if r.pos >= len(r.data) || r.data[r.pos] != ':' {
					return r.errorf("expected ':' after object key")
				}
				r.pos++
			}
			break
		}
		if len(closers) == 0 {
			return nil
		}
	}
}
