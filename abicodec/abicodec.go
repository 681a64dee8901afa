// Package abicodec decodes binary contract data into JSON with an ABI known
// only at run time: the ABI a contract had at some block (ship's
// ActionTrace.ABI, an account delta, get_raw_abi), for the contracts you
// have no generated bindings for, or whose ABI changed since.
//
//	c, err := abicodec.New(packedABI)              // any form abigen --abi reads
//	js, err := c.ActionJSON(trace.Name, trace.Data) // {"from":"alice",…}
//
// The JSON is what the generated bindings print (nodeos's dialect, bool as
// true/false), byte for byte: internal/oracle's
// TestDynamicDecoderSameAsGenerated compares the two on every oracle vector
// of every golden ABI, and FuzzSameAsGenerated on any bytes. Decoding is as strict as the generated
// decoders' (the antelope runtime's built-ins, lengths checked before
// anything is allocated, nesting bounded).
package abicodec

import (
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// Codec decodes the types of one ABI.
type Codec struct {
	types   map[string]*model.Type // declared and built-in names
	actions map[antelope.Name]*model.Type
	tables  map[antelope.Name]*model.Type
	results map[antelope.Name]*model.Type
}

// New reads an ABI in any form abigen reads (ABI JSON, a saved API
// response, a packed ABI as bytes or hex) and resolves it.
func New(abi []byte) (*Codec, error) {
	src, err := model.Load(abi)
	if err != nil {
		return nil, fmt.Errorf("abicodec: %w", err)
	}
	m, err := model.ResolveWith(src.ABI, model.ResolveOptions{OffChain: true})
	if err != nil {
		return nil, fmt.Errorf("abicodec: invalid ABI: %w", err)
	}
	c := &Codec{types: map[string]*model.Type{}, actions: map[antelope.Name]*model.Type{},
		tables: map[antelope.Name]*model.Type{}, results: map[antelope.Name]*model.Type{}}
	for _, b := range model.BuiltinTypes {
		c.types[b] = &model.Type{Kind: model.Builtin, Name: b}
	}
	for _, s := range m.Structs {
		c.types[s.Name] = &model.Type{Kind: model.StructKind, Name: s.Name, Struct: s}
	}
	for _, v := range m.Variants {
		c.types[v.Name] = &model.Type{Kind: model.VariantKind, Name: v.Name, Variant: v}
	}
	for _, a := range m.Aliases {
		c.types[a.Name] = &model.Type{Kind: model.AliasKind, Name: a.Name, Alias: a, Elem: a.Target}
	}
	for _, a := range m.Actions {
		if n, err := antelope.ParseName(a.Name); err == nil {
			c.actions[n] = a.Type
		}
	}
	for _, t := range m.Tables {
		if n, err := antelope.ParseName(t.Name); err == nil {
			c.tables[n] = t.Type
		}
	}
	for _, r := range m.ActionResults {
		if n, err := antelope.ParseName(r.Name); err == nil {
			c.results[n] = r.Type
		}
	}
	return c, nil
}

// ActionJSON decodes the data of action.
func (c *Codec) ActionJSON(action antelope.Name, data []byte) ([]byte, error) {
	t, ok := c.actions[action]
	if !ok {
		return nil, fmt.Errorf("abicodec: the ABI has no action %s", action)
	}
	return c.decode(t, data, action.String())
}

// TableJSON decodes a row of table.
func (c *Codec) TableJSON(table antelope.Name, data []byte) ([]byte, error) {
	t, ok := c.tables[table]
	if !ok {
		return nil, fmt.Errorf("abicodec: the ABI has no table %s", table)
	}
	return c.decode(t, data, table.String())
}

// ResultJSON decodes the value action returned (ABI 1.2 action results).
func (c *Codec) ResultJSON(action antelope.Name, data []byte) ([]byte, error) {
	t, ok := c.results[action]
	if !ok {
		return nil, fmt.Errorf("abicodec: the ABI has no result type for action %s", action)
	}
	return c.decode(t, data, action.String()+" result")
}

// JSON decodes a value of the struct, variant, typedef or built-in type
// named typ.
func (c *Codec) JSON(typ string, data []byte) ([]byte, error) {
	t, ok := c.types[typ]
	if !ok {
		return nil, fmt.Errorf("abicodec: the ABI has no type %q", typ)
	}
	return c.decode(t, data, typ)
}

func (c *Codec) decode(t *model.Type, data []byte, what string) ([]byte, error) {
	d := antelope.NewDecoder(data)
	out, err := value(d, t, nil, true)
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		return nil, antelope.AtField(err, what)
	}
	return out, nil
}

// AppendValue appends the JSON of one value of type t read from d, the way
// the Codec's methods print it: for a caller walking a value itself (a
// struct's top-level fields into typed columns) that wants the JSON of the
// parts it does not take apart. last says the value ends the outermost one,
// the only place a struct's binary extensions may be absent.
func AppendValue(d *antelope.Decoder, t *model.Type, b []byte, last bool) ([]byte, error) {
	return value(d, t, b, last)
}
