package bench

import (
	"fmt"

	"github.com/antelopego/abigen/antelope"
)

// handMint is atomicassets' mintasset, hand-written for the attribute kinds
// real collections use most (string, uint64, float64, string[]): an
// ATTRIBUTE_MAP is a list of (key, variant) pairs.
type handMint struct {
	AuthorizedMinter, CollectionName, SchemaName antelope.Name
	TemplateID                                   int32
	NewAssetOwner                                antelope.Name
	ImmutableData, MutableData                   []handAttr
	TokensToBack                                 []antelope.Asset
}

// handAttr holds one attribute; Value is string, uint64, float64 or []string.
type handAttr struct {
	Key   string
	Value any
}

// The ATOMIC_ATTRIBUTE alternatives handMint supports.
const (
	altUint64    = 7
	altFloat64   = 9
	altString    = 10
	altStringVec = 21
)

func appendAttrs(b []byte, attrs []handAttr) (_ []byte, err error) {
	if b, err = antelope.AppendLength(b, len(attrs)); err != nil {
		return b, err
	}
	for _, a := range attrs {
		if b, err = antelope.AppendString(b, a.Key); err != nil {
			return b, err
		}
		switch v := a.Value.(type) {
		case uint64:
			b = antelope.AppendUint64(antelope.AppendVarUint32(b, altUint64), v)
		case float64:
			b = antelope.AppendFloat64(antelope.AppendVarUint32(b, altFloat64), v)
		case string:
			if b, err = antelope.AppendString(antelope.AppendVarUint32(b, altString), v); err != nil {
				return b, err
			}
		case []string:
			if b, err = antelope.AppendLength(antelope.AppendVarUint32(b, altStringVec), len(v)); err != nil {
				return b, err
			}
			for _, s := range v {
				if b, err = antelope.AppendString(b, s); err != nil {
					return b, err
				}
			}
		default:
			return b, fmt.Errorf("attribute %s: unsupported value %T", a.Key, a.Value)
		}
	}
	return b, nil
}

func decodeAttrs(d *antelope.Decoder) ([]handAttr, error) {
	n, err := d.Length("ATTRIBUTE_MAP", 2)
	if err != nil {
		return nil, err
	}
	attrs := make([]handAttr, n)
	for i := range attrs {
		if attrs[i].Key, err = d.String(); err != nil {
			return nil, err
		}
		idx, err := d.VarUint32()
		if err != nil {
			return nil, err
		}
		switch idx {
		case altUint64:
			attrs[i].Value, err = d.Uint64()
		case altFloat64:
			attrs[i].Value, err = d.Float64()
		case altString:
			attrs[i].Value, err = d.String()
		case altStringVec:
			var m int
			if m, err = d.Length("STRING_VEC", 1); err != nil {
				return nil, err
			}
			list := make([]string, m)
			for j := range list {
				if list[j], err = d.String(); err != nil {
					return nil, err
				}
			}
			attrs[i].Value = list
		default:
			return nil, fmt.Errorf("attribute %s: unsupported alternative %d", attrs[i].Key, idx)
		}
		if err != nil {
			return nil, err
		}
	}
	return attrs, nil
}

func (m *handMint) appendBinary(b []byte) (_ []byte, err error) {
	b = antelope.AppendUint64(b, uint64(m.AuthorizedMinter))
	b = antelope.AppendUint64(b, uint64(m.CollectionName))
	b = antelope.AppendUint64(b, uint64(m.SchemaName))
	b = antelope.AppendInt32(b, m.TemplateID)
	b = antelope.AppendUint64(b, uint64(m.NewAssetOwner))
	if b, err = appendAttrs(b, m.ImmutableData); err != nil {
		return b, err
	}
	if b, err = appendAttrs(b, m.MutableData); err != nil {
		return b, err
	}
	if b, err = antelope.AppendLength(b, len(m.TokensToBack)); err != nil {
		return b, err
	}
	for i := range m.TokensToBack {
		if b, err = m.TokensToBack[i].AppendBinary(b); err != nil {
			return b, err
		}
	}
	return b, nil
}

func (m *handMint) decodeBinary(d *antelope.Decoder) (err error) {
	for _, n := range [...]*antelope.Name{&m.AuthorizedMinter, &m.CollectionName, &m.SchemaName} {
		if err = n.DecodeBinary(d); err != nil {
			return err
		}
	}
	if m.TemplateID, err = d.Int32(); err != nil {
		return err
	}
	if err = m.NewAssetOwner.DecodeBinary(d); err != nil {
		return err
	}
	if m.ImmutableData, err = decodeAttrs(d); err != nil {
		return err
	}
	if m.MutableData, err = decodeAttrs(d); err != nil {
		return err
	}
	n, err := d.Length("asset[]", 16)
	if err != nil {
		return err
	}
	m.TokensToBack = make([]antelope.Asset, n)
	for i := range m.TokensToBack {
		if err = m.TokensToBack[i].DecodeBinary(d); err != nil {
			return err
		}
	}
	return nil
}
