package model

import (
	"errors"
	"fmt"

	"github.com/antelopego/abigen/antelope"
)

// ParsePacked decodes the binary form of an ABI, as stored on chain. The
// sections after abi_extensions (variants, action_results) are read only if
// bytes remain; anything after them (the obsolete kv_tables, spring 2.0's
// calls) is ignored, as nodeos ignores it.
func ParsePacked(data []byte) (*ABI, error) {
	if len(data) == 0 {
		return nil, errors.New("no data")
	}
	p := packedReader{d: antelope.NewDecoder(data)}
	abi := &ABI{Version: p.str("version")}
	if p.err != nil {
		return nil, p.err
	}
	if err := checkVersion(abi.Version); err != nil {
		return nil, err
	}
	p.list("types", func() { abi.Types = append(abi.Types, TypeDef{p.str("new_type_name"), p.str("type")}) })
	p.list("structs", func() {
		s := StructDef{Name: p.str("name"), Base: p.str("base")}
		p.list("fields", func() { s.Fields = append(s.Fields, FieldDef{p.str("name"), p.str("type")}) })
		abi.Structs = append(abi.Structs, s)
	})
	p.list("actions", func() {
		abi.Actions = append(abi.Actions, ActionDef{p.name(), p.str("type"), p.str("ricardian_contract")})
	})
	p.list("tables", func() {
		t := TableDef{Name: p.name(), IndexType: p.str("index_type")}
		p.list("key_names", func() { t.KeyNames = append(t.KeyNames, p.str("key_name")) })
		p.list("key_types", func() { t.KeyTypes = append(t.KeyTypes, p.str("key_type")) })
		t.Type = p.str("type")
		abi.Tables = append(abi.Tables, t)
	})
	p.list("ricardian_clauses", func() {
		abi.RicardianClauses = append(abi.RicardianClauses, ClausePair{p.str("id"), p.str("body")})
	})
	p.list("error_messages", func() {
		code, err := p.d.Uint64()
		p.fail(err)
		abi.ErrorMessages = append(abi.ErrorMessages, ErrorMessage{ErrorCode(code), p.str("error_msg")})
	})
	nExt := 0
	p.list("abi_extensions", func() {
		nExt++
		_, err := p.d.Uint16()
		p.fail(err)
		_, err = p.d.ByteSlice("abi_extension")
		p.fail(err)
	})
	if p.err == nil && nExt > 0 {
		return nil, errors.New("abi_extensions must be empty; no extension is defined")
	}
	if p.err == nil && p.d.Remaining() > 0 {
		p.list("variants", func() {
			v := VariantDef{Name: p.str("name")}
			p.list("types", func() { v.Types = append(v.Types, p.str("type")) })
			abi.Variants = append(abi.Variants, v)
		})
	}
	if p.err == nil && p.d.Remaining() > 0 {
		p.list("action_results", func() {
			abi.ActionResults = append(abi.ActionResults, ActionResultDef{p.name(), p.str("result_type")})
		})
	}
	if p.err != nil {
		return nil, p.err
	}
	return abi, nil
}

// packedReader keeps the first error, so that the reading code above can
// stay a plain description of the layout.
type packedReader struct {
	d   *antelope.Decoder
	err error
}

func (p *packedReader) fail(err error) {
	if p.err == nil && err != nil {
		p.err = err
	}
}

func (p *packedReader) str(what string) string {
	if p.err != nil {
		return ""
	}
	b, err := p.d.ByteSlice(what)
	p.fail(err)
	return string(b)
}

func (p *packedReader) name() string {
	if p.err != nil {
		return ""
	}
	var n antelope.Name
	p.fail(n.DecodeBinary(p.d))
	return n.String()
}

func (p *packedReader) list(what string, item func()) {
	if p.err != nil {
		return
	}
	n, err := p.d.Length(what, 1)
	if err != nil {
		p.fail(fmt.Errorf("%s: %w", what, err))
		return
	}
	for i := 0; i < n && p.err == nil; i++ {
		item()
	}
	if p.err != nil {
		// Nested lists add their names outermost first: "structs: fields: …".
		p.err = fmt.Errorf("%s: %w", what, p.err)
	}
}

// Pack returns the binary form of the ABI, as set on chain: the inverse of
// ParsePacked. Sections after abi_extensions are written only when they, or
// a later one, are not empty, so a 1.0 ABI packs as nodeos packs it.
func (a *ABI) Pack() ([]byte, error) {
	var b []byte
	var err error
	str := func(s string) {
		if err == nil {
			b, err = antelope.AppendString(b, s)
		}
	}
	name := func(s string) {
		n, perr := antelope.ParseName(s)
		if perr != nil && err == nil {
			err = fmt.Errorf("%q: %w", s, perr)
		}
		b = antelope.AppendUint64(b, uint64(n))
	}
	count := func(n int) { b = antelope.AppendVarUint32(b, uint32(n)) }
	str(a.Version)
	count(len(a.Types))
	for _, t := range a.Types {
		str(t.NewTypeName)
		str(t.Type)
	}
	count(len(a.Structs))
	for _, s := range a.Structs {
		str(s.Name)
		str(s.Base)
		count(len(s.Fields))
		for _, f := range s.Fields {
			str(f.Name)
			str(f.Type)
		}
	}
	count(len(a.Actions))
	for _, ac := range a.Actions {
		name(ac.Name)
		str(ac.Type)
		str(ac.RicardianContract)
	}
	count(len(a.Tables))
	for _, t := range a.Tables {
		name(t.Name)
		str(t.IndexType)
		count(len(t.KeyNames))
		for _, k := range t.KeyNames {
			str(k)
		}
		count(len(t.KeyTypes))
		for _, k := range t.KeyTypes {
			str(k)
		}
		str(t.Type)
	}
	count(len(a.RicardianClauses))
	for _, c := range a.RicardianClauses {
		str(c.ID)
		str(c.Body)
	}
	count(len(a.ErrorMessages))
	for _, e := range a.ErrorMessages {
		b = antelope.AppendUint64(b, uint64(e.Code))
		str(e.Message)
	}
	count(0) // abi_extensions
	if len(a.Variants) > 0 || len(a.ActionResults) > 0 {
		count(len(a.Variants))
		for _, v := range a.Variants {
			str(v.Name)
			count(len(v.Types))
			for _, t := range v.Types {
				str(t)
			}
		}
	}
	if len(a.ActionResults) > 0 {
		count(len(a.ActionResults))
		for _, r := range a.ActionResults {
			name(r.Name)
			str(r.ResultType)
		}
	}
	return b, err
}
