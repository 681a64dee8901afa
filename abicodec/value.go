package abicodec

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// value appends the JSON of the value of type t at d. tail is true where
// the value ends the outermost one, the only place binary extensions may
// be absent (nodeos's rule, as the generated decoders apply it).
func value(d *antelope.Decoder, t *model.Type, b []byte, tail bool) ([]byte, error) {
	switch t.Kind {
	case model.AliasKind:
		return value(d, t.Elem, b, tail)
	case model.Builtin:
		return builtin(d, t.Name, b)
	case model.Optional:
		present, err := d.OptionalFlag()
		if err != nil {
			return b, err
		}
		if !present {
			return append(b, "null"...), nil
		}
		return value(d, t.Elem, b, tail)
	case model.Array:
		n, err := d.Length(t.Name, model.MinSize(t.Elem))
		if err != nil {
			return b, err
		}
		return elements(d, t.Elem, b, n)
	case model.FixedArray:
		return elements(d, t.Elem, b, t.Len)
	case model.StructKind:
		return structValue(d, t.Struct, b, tail)
	case model.VariantKind:
		return variantValue(d, t.Variant, b, tail)
	}
	return b, d.Error(t.Name, "unknown kind of type")
}

func elements(d *antelope.Decoder, elem *model.Type, b []byte, n int) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = value(d, elem, b, false); err != nil {
			return b, antelope.AtIndex(err, i)
		}
	}
	return append(b, ']'), nil
}

func structValue(d *antelope.Decoder, s *model.Struct, b []byte, tail bool) ([]byte, error) {
	if err := d.Enter(s.Name); err != nil {
		return b, err
	}
	defer d.Leave()
	b = append(b, '{')
	fields := s.AllFields()
	var err error
	for i, f := range fields {
		last := i == len(fields)-1
		if f.Extension && tail && d.Remaining() == 0 {
			break // absent, and so are the extensions after it
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = antelope.AppendStringJSON(b, f.Name)
		b = append(b, ':')
		if b, err = value(d, f.Type, b, tail && last); err != nil {
			return b, antelope.AtField(err, f.Name)
		}
	}
	return append(b, '}'), nil
}

func variantValue(d *antelope.Decoder, v *model.Variant, b []byte, tail bool) ([]byte, error) {
	if err := d.Enter(v.Name); err != nil {
		return b, err
	}
	defer d.Leave()
	i, err := d.VariantIndex(v.Name, len(v.Members))
	if err != nil {
		return b, err
	}
	m := v.Members[i]
	b = append(b, '[')
	b = antelope.AppendStringJSON(b, m.Name)
	b = append(b, ',')
	if b, err = value(d, m, b, tail); err != nil {
		return b, antelope.AtField(err, m.Name)
	}
	return append(b, ']'), nil
}
