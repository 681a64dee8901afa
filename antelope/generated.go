package antelope

import "strconv"

// Support for generated packages: small pieces every binding needs, kept
// here so that generated code stays short.

// Ext holds the value of a binary-extension field (an ABI type ending in
// "$"). Present is false when the field is absent: the data ended before it.
// Absent fields must be a suffix of the struct: once one is absent, all that
// follow are absent too.
type Ext[T any] struct {
	Value   T    // the field's value when Present
	Present bool // false: the encoded data ended before this field
}

// NewExt returns a present extension field holding v.
func NewExt[T any](v T) Ext[T] { return Ext[T]{Value: v, Present: true} }

// ErrExtensionOrder reports a binary-extension field that is present after
// an earlier one that is absent: the encoding cannot express that.
func ErrExtensionOrder(present, absent string) error {
	return &PathError{Path: present, Err: valueErr("extension", "", "present while the earlier binary-extension field "+strconv.Quote(absent)+" is absent")}
}

// ErrExtensionRequired reports an absent binary-extension field where the
// encoding cannot end early: only the outermost value, and recursively its
// last field, may stop before its extensions (nodeos and abieos agree).
func ErrExtensionRequired(field string) error {
	return &PathError{Path: field, Err: valueErr("extension", "", "must be present: only the outermost struct and its last field may leave binary extensions out")}
}

// Errorf returns a JSONError at the reader's current offset.
func (r *JSONReader) Errorf(msg string) error { return r.errorf(msg) }

// MissingField reports a required field absent from a JSON object.
func (r *JSONReader) MissingField(name string) error {
	return r.errorf("missing field " + strconv.Quote(name))
}

// DuplicateField reports a field given twice in one JSON object.
func (r *JSONReader) DuplicateField(name string) error {
	return r.errorf("duplicate field " + strconv.Quote(name))
}

// BeginVariant reads the start of a variant's JSON form ["type", value] and
// returns the type name, leaving the reader at the value. The name is valid
// until the next call on r.
func (r *JSONReader) BeginVariant(variant string) ([]byte, error) {
	// The message is built only on failure: a concatenation here was an
	// allocation per variant read.
	shape := func(more string) error { return r.errorf(`variant ` + variant + `: expected ["type", value]` + more) }
	if r.Peek() != JSONArray {
		return nil, shape("")
	}
	if err := r.BeginArray(); err != nil {
		return nil, err
	}
	if ok, err := r.NextElement(); err != nil || !ok {
		return nil, orErr(err, shape(""))
	}
	if r.Peek() != JSONString {
		return nil, shape(" with the type name first")
	}
	name, err := r.stringBytes()
	if err != nil {
		return nil, err
	}
	if ok, err := r.NextElement(); err != nil || !ok {
		return nil, orErr(err, shape(""))
	}
	return name, nil
}

// EndVariant reads the closing ']' of a variant's JSON form.
func (r *JSONReader) EndVariant(variant string) error {
	if ok, err := r.NextElement(); err != nil || ok {
		return orErr(err, r.errorf(`variant `+variant+`: expected exactly 2 items, ["type", value]`))
	}
	return nil
}

// UnknownVariantType reports a type name a variant does not list.
func (r *JSONReader) UnknownVariantType(variant, name string) error {
	return valueErr(variant, name, "not one of the variant's types")
}

// VariantIndex reads a variant's varuint32 index and checks it against the
// number of types n.
func (d *Decoder) VariantIndex(variant string, n int) (int, error) {
	off := d.pos
	i, err := d.varuint32(variant, false)
	if err != nil {
		return 0, err
	}
	if uint64(i) >= uint64(n) {
		return 0, d.errAt(off, variant, "variant index "+strconv.FormatUint(uint64(i), 10)+" is out of range: the variant has "+strconv.Itoa(n)+" types")
	}
	return int(i), nil
}

// ErrNoVariantValue reports a variant whose Value is nil when encoding.
func ErrNoVariantValue(variant string) error {
	return valueErr(variant, "", "the variant holds no value (Value is nil)")
}

// Table describes a contract table, as its ABI declares it.
type Table struct {
	Name      string   // the table name, e.g. "jobs.a"
	IndexType string   // usually "i64"
	KeyNames  []string // informative only
	KeyTypes  []string // informative only
	Type      string   // the ABI type of a row
}

// NewAction packs data as the payload of action name of account, with the
// given authorization.
func NewAction(account, name Name, data BinaryAppender, auth []PermissionLevel) (Action, error) {
	if account == 0 {
		return Action{}, valueErr("action", name.String(), "no contract account: set Contract.Account")
	}
	packed, err := data.AppendBinary(nil)
	if err != nil {
		return Action{}, AtField(err, name.String())
	}
	if auth == nil {
		auth = []PermissionLevel{}
	}
	return Action{Account: account, Name: name, Authorization: auth, Data: packed}, nil
}

// Decoded unmarshals data into v and returns v: the body of a generated
// DecodeAction or DecodeTableRow case.
func Decoded(v interface{ UnmarshalBinary([]byte) error }, data []byte) (any, error) {
	if err := v.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return v, nil
}
