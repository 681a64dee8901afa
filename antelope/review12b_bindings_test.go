package antelope_test

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/golden/atomicassets"
)

// Generated bindings read names, integers and hex through the one-pass
// readers: a row of atomicassets (assets_s: uint64, names, int32, asset[],
// bytes) and an eosio.token transfer, as objects and as nodeos's arrays of
// field values, with any values, reads as a model of the generated code
// over the readers as they were (antelope.OldRead…) reads it: the same
// fields, the same error.

// oldField is a field of the model: its key, and how the plain code read
// it (the value left in the field, also on an error).
type oldField struct {
	key  string
	read func(r *antelope.JSONReader) (any, error)
}

// oldStruct decodes as generated code does, with the fields' plain
// readers: an object (any order, unknown keys skipped, none twice or
// missing) or an array of the values in order.
func oldStruct(r *antelope.JSONReader, abiName string, fields []oldField, zero []any) ([]any, error) {
	vals := append([]any(nil), zero...)
	if r.Peek() == antelope.JSONArray {
		if err := r.BeginArray(); err != nil {
			return vals, err
		}
		for i, f := range fields {
			ok, err := r.NextElement()
			if err != nil {
				return vals, err
			}
			if !ok {
				return vals, r.Errorf("early end of the array of " + abiName + " fields: missing \"" + f.key + "\"")
			}
			v, err := f.read(r)
			vals[i] = v
			if err != nil {
				return vals, antelope.AtField(err, f.key)
			}
		}
		if ok, err := r.NextElement(); err != nil || ok {
			return vals, antelope.OrErr(err, r.Errorf("more values than "+abiName+" has fields"))
		}
		return vals, nil
	}
	if err := r.BeginObject(); err != nil {
		return vals, err
	}
	seen := make([]bool, len(fields))
	for {
		key, ok, err := r.NextKey()
		if err != nil {
			return vals, err
		}
		if !ok {
			break
		}
		i := slicesIndexFunc(fields, string(key))
		if i < 0 {
			if err := r.Skip(); err != nil {
				return vals, err
			}
			continue
		}
		if seen[i] {
			return vals, r.DuplicateField(fields[i].key)
		}
		seen[i] = true
		v, err := fields[i].read(r)
		vals[i] = v
		if err != nil {
			return vals, antelope.AtField(err, fields[i].key)
		}
	}
	for i, f := range fields {
		if !seen[i] {
			return vals, r.MissingField(f.key)
		}
	}
	return vals, nil
}

func slicesIndexFunc(fields []oldField, key string) int {
	for i, f := range fields {
		if f.key == key {
			return i
		}
	}
	return -1
}

func oldName(r *antelope.JSONReader) (any, error) {
	var n antelope.Name
	err := antelope.OldReadName(r, &n)
	return n, err
}

func oldBytesField(r *antelope.JSONReader) (any, error) { return antelope.OldReadBytes(r) }

// oldAssets reads an asset[] as the generated helper does (the asset
// reader is not under review: the current one).
func oldAssets(r *antelope.JSONReader) (any, error) {
	n := r.ArrayLen()
	if err := r.BeginArray(); err != nil {
		return []antelope.Asset(nil), err
	}
	x := make([]antelope.Asset, 0, n)
	for i := 0; ; i++ {
		ok, err := r.NextElement()
		if err != nil || !ok {
			return x, err
		}
		x = append(x, antelope.Asset{})
		if err = x[i].DecodeJSON(r); err != nil {
			return x, antelope.AtIndex(err, i)
		}
	}
}

var assetsSFields = []oldField{
	{"asset_id", func(r *antelope.JSONReader) (any, error) { return antelope.OldReadUnsigned(r, "uint64", 64) }},
	{"collection_name", oldName},
	{"schema_name", oldName},
	{"template_id", func(r *antelope.JSONReader) (any, error) {
		v, err := antelope.OldReadSigned(r, "int32", 32)
		return int32(v), err
	}},
	{"ram_payer", oldName},
	{"backed_tokens", oldAssets},
	{"immutable_serialized_data", oldBytesField},
	{"mutable_serialized_data", oldBytesField},
}

var assetsSZero = []any{uint64(0), antelope.Name(0), antelope.Name(0), int32(0), antelope.Name(0), []antelope.Asset(nil), []byte(nil), []byte(nil)}

func assetsSValues(v *atomicassets.AssetsS) []any {
	return []any{v.AssetID, v.CollectionName, v.SchemaName, v.TemplateID, v.RAMPayer, v.BackedTokens, v.ImmutableSerializedData, v.MutableSerializedData}
}

var transferFields = []oldField{
	{"from", oldName},
	{"to", oldName},
	{"quantity", func(r *antelope.JSONReader) (any, error) {
		var a antelope.Asset
		err := a.DecodeJSON(r)
		return a, err
	}},
	{"memo", func(r *antelope.JSONReader) (any, error) { return r.String() }},
}

var transferZero = []any{antelope.Name(0), antelope.Name(0), antelope.Asset{}, ""}

func transferValues(v *eosiotoken.Transfer) []any { return []any{v.From, v.To, v.Quantity, v.Memo} }

// randFieldJSON is a field's value: one its type reads, or when wild a
// value at an edge, in any form and with any neighbours.
func randFieldJSON(r *rand.Rand, kind string, wild bool) string {
	if wild && r.IntN(2) == 0 {
		return string(antelope.RandScalarJSON(r))
	}
	text := antelope.RandScalarText(r)
	if wild {
		return `"` + text + `"`
	}
	switch kind {
	case "name":
		const alphabet = ".12345abcdefghijklmnopqrstuvwxyz"
		b := make([]byte, r.IntN(14))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		text = string(b)
	case "uint64":
		text = strconv.FormatUint(r.Uint64()>>r.IntN(64), 10)
		if r.IntN(2) == 0 {
			return text
		}
	case "int32":
		text = strconv.FormatInt(int64(int32(r.Uint32()))>>r.IntN(32), 10)
		if r.IntN(2) == 0 {
			return text
		}
	case "bytes":
		b := make([]byte, 2*r.IntN(70))
		for i := range b {
			b[i] = "0123456789abcdefABCDEF"[r.IntN(22)]
		}
		text = string(b)
	case "assets":
		return []string{`[]`, `["1.0000 WAX"]`, `["1.0000 WAX", "0.00000001 FOO"]`}[r.IntN(3)]
	case "asset":
		return []string{`"1.0000 EOS"`, `"-0.1 A"`}[r.IntN(2)]
	case "string":
		return strconv.Quote(text)
	}
	return `"` + text + `"`
}

// randStructJSON is an object or an array of the fields' values, in
// order or shuffled, a few of them at an edge, at times with a key twice,
// an unknown key, one missing, or cut.
func randStructJSON(r *rand.Rand, keys, kinds []string) []byte {
	vals := make([]string, len(keys))
	wild := r.Uint32() & r.Uint32() & r.Uint32() // an eighth of the fields
	for i := range keys {
		vals[i] = randFieldJSON(r, kinds[i], wild>>i&1 == 1)
	}
	var doc string
	if r.IntN(3) == 0 {
		if r.IntN(5) == 0 {
			vals = vals[:r.IntN(len(vals)+1)]
		}
		doc = "[" + strings.Join(vals, ",") + "]"
	} else {
		members := make([]string, len(keys))
		for i := range keys {
			members[i] = strconv.Quote(keys[i]) + ":" + vals[i]
		}
		r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		switch r.IntN(16) {
		case 0:
			members = append(members, members[r.IntN(len(members))])
		case 1:
			members = append(members, `"other":["a",{"b":1}]`)
		case 2:
			members = members[1:]
		}
		doc = "{" + strings.Join(members, ",") + "}"
	}
	if r.IntN(16) == 0 {
		doc = doc[:r.IntN(len(doc)+1)]
	}
	return []byte(doc)
}

// sameFields fails unless the binding read what the model read, with the
// same error, byte slices of the same capacity.
func sameFields(t *testing.T, doc []byte, got []any, err error, want []any, wantErr error) {
	t.Helper()
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(err, wantErr) {
		t.Fatalf("%s: reads %v, %v; the plain code %v, %v", doc, got, err, want, wantErr)
	}
	for i := range got {
		if g, ok := got[i].([]byte); ok && cap(g) != cap(want[i].([]byte)) {
			t.Fatalf("%s: field %d has capacity %d; the plain code %d", doc, i, cap(g), cap(want[i].([]byte)))
		}
	}
}

func TestBindingsReadScalarsAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 0xb1))
	n := 4000
	if testing.Short() {
		n = 1000
	}
	assetsKeys := []string{"asset_id", "collection_name", "schema_name", "template_id", "ram_payer", "backed_tokens", "immutable_serialized_data", "mutable_serialized_data"}
	assetsKinds := []string{"uint64", "name", "name", "int32", "name", "assets", "bytes", "bytes"}
	transferKeys := []string{"from", "to", "quantity", "memo"}
	transferKinds := []string{"name", "name", "asset", "string"}
	for range n {
		doc := randStructJSON(r, assetsKeys, assetsKinds)
		var row atomicassets.AssetsS
		err := antelope.UnmarshalJSON(doc, &row)
		m := antelope.NewJSONReader(doc)
		want, wantErr := oldStruct(m, "assets_s", assetsSFields, assetsSZero)
		if wantErr == nil {
			wantErr = m.Finish()
		}
		sameFields(t, doc, assetsSValues(&row), err, want, wantErr)

		doc = randStructJSON(r, transferKeys, transferKinds)
		var tr eosiotoken.Transfer
		err = antelope.UnmarshalJSON(doc, &tr)
		m = antelope.NewJSONReader(doc)
		want, wantErr = oldStruct(m, "transfer", transferFields, transferZero)
		if wantErr == nil {
			wantErr = m.Finish()
		}
		sameFields(t, doc, transferValues(&tr), err, want, wantErr)
	}
}
