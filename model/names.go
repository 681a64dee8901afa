package model

import (
	"strconv"

	"github.com/antelopego/abigen/antelope"
)

// Rewriting the names inside packed action data, by the ABI's types: what
// resolving a signing request needs to replace its placeholder names
// (antelope.ActionNameRewriter). A name is 8 bytes wherever it appears, so
// the data is walked, not decoded, and each name rewritten in place; every
// other value is read with antelope's decoders, so data that is not a
// valid encoding of the action's type is refused.

// Contracts maps contract accounts to their resolved ABIs. It implements
// antelope.ActionNameRewriter.
type Contracts map[antelope.Name]*Model

// RewriteNames rewrites every name value in the data of account's action
// (see Model.RewriteNames).
func (c Contracts) RewriteNames(account, action antelope.Name, data []byte, rewrite func(antelope.Name) antelope.Name) ([]byte, error) {
	m, ok := c[account]
	if !ok {
		return nil, &antelope.ValueError{Type: "action", Input: account.String() + "::" + action.String(), Msg: "no ABI for the contract " + account.String()}
	}
	return m.RewriteNames(action.String(), data, rewrite)
}

// RewriteNames returns data, the packed data of action, with every value of
// ABI type name (also inside extended_asset, and through typedefs) replaced
// by rewrite(value). data is modified in place and returned. It fails when
// the ABI has no such action, or when data is not exactly one valid value
// of its type.
func (m *Model) RewriteNames(action string, data []byte, rewrite func(antelope.Name) antelope.Name) ([]byte, error) {
	var typ *Type
	for _, a := range m.Actions {
		if a.Name == action {
			typ = a.Type
		}
	}
	if typ == nil {
		return nil, &antelope.ValueError{Type: "action", Input: action, Msg: "not an action of the ABI"}
	}
	w := nameWalker{d: antelope.NewDecoder(data), data: data, rewrite: rewrite}
	if err := w.walk(typ, true); err != nil {
		return nil, antelope.AtField(err, action)
	}
	if err := w.d.Finish(); err != nil {
		return nil, antelope.AtField(err, action)
	}
	return data, nil
}

type nameWalker struct {
	d       *antelope.Decoder
	data    []byte
	rewrite func(antelope.Name) antelope.Name
}

// name rewrites the name at the decoder's position.
func (w *nameWalker) name() error {
	off := w.d.Offset()
	v, err := w.d.Uint64()
	if err != nil {
		return err
	}
	n := uint64(w.rewrite(antelope.Name(v)))
	for i := range 8 {
		w.data[off+i] = byte(n >> (8 * i))
	}
	return nil
}

// walk reads one value of t; last says the value ends the data, where
// binary-extension fields may be absent.
func (w *nameWalker) walk(t *Type, last bool) error {
	t = t.Resolved()
	switch t.Kind {
	case Builtin:
		return w.builtin(t.Name)
	case Optional:
		present, err := w.d.OptionalFlag()
		if err != nil || !present {
			return err
		}
		return w.walk(t.Elem, last)
	case Array, FixedArray:
		n := t.Len
		if t.Kind == Array {
			var err error
			if n, err = w.d.Length(t.Name, MinSize(t.Elem)); err != nil {
				return err
			}
		}
		for i := range n {
			if err := w.walk(t.Elem, false); err != nil {
				return antelope.AtIndex(err, i)
			}
		}
		return nil
	case StructKind:
		if err := w.d.Enter(t.Struct.Name); err != nil {
			return err
		}
		defer w.d.Leave()
		fields := t.Struct.AllFields()
		for i, f := range fields {
			if f.Extension && last && w.d.Remaining() == 0 {
				return nil
			}
			if err := w.walk(f.Type, last && i == len(fields)-1); err != nil {
				return antelope.AtField(err, f.Name)
			}
		}
		return nil
	case VariantKind:
		if err := w.d.Enter(t.Variant.Name); err != nil {
			return err
		}
		defer w.d.Leave()
		i, err := w.d.VariantIndex(t.Variant.Name, len(t.Variant.Members))
		if err != nil {
			return err
		}
		return w.walk(t.Variant.Members[i], last)
	}
	return w.d.Error(t.Name, "unsupported kind of type")
}

func (w *nameWalker) builtin(name string) error {
	if name == "name" {
		return w.name()
	}
	if i, ok := builtinIndex[name]; ok && builtinTable[i].plain {
		_, err := w.d.Raw(name, builtinTable[i].minSize)
		return err
	}
	var err error
	switch name {
	case "bool":
		_, err = w.d.Bool()
	case "varint32":
		_, err = w.d.VarInt32()
	case "varuint32":
		_, err = w.d.VarUint32()
	case "bytes":
		_, err = w.d.ByteSlice(name)
	case "string":
		_, err = w.d.String()
	case "public_key":
		err = new(antelope.PublicKey).DecodeBinary(w.d)
	case "private_key":
		err = new(antelope.PrivateKey).DecodeBinary(w.d)
	case "signature":
		err = new(antelope.Signature).DecodeBinary(w.d)
	case "symbol":
		err = new(antelope.Symbol).DecodeBinary(w.d)
	case "symbol_code":
		err = new(antelope.SymbolCode).DecodeBinary(w.d)
	case "asset":
		err = new(antelope.Asset).DecodeBinary(w.d)
	case "extended_asset":
		if err = new(antelope.Asset).DecodeBinary(w.d); err == nil {
			err = antelope.AtField(w.name(), "contract")
		}
	case "bitset":
		err = new(antelope.Bitset).DecodeBinary(w.d)
	default:
		err = w.d.Error(name, "unknown built-in type "+strconv.Quote(name))
	}
	return err
}
