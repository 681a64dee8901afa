package fork

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// How a fork learns a table's secondary keys, which neither nodeos's
// get_table_rows nor the state service sends: from the ABI's key_names
// and key_types (the primary key first, then each secondary index in
// position order), when the named field is at a fixed offset of the row
// (every field before it of a fixed size) and of a key type an index
// holds. Anything else is not learnt, and reading that index is refused.

// KeyReader reads one secondary key from a row's bytes.
type KeyReader struct {
	offset int
	typ    antelope.IndexKeyType
}

// Type is the get_table_rows key type of the index k reads.
func (k KeyReader) Type() antelope.IndexKeyType { return k.typ }

// Read reads the key from a row's bytes.
func (k KeyReader) Read(data []byte) (antelope.TableKey, error) {
	size := 8
	if k.typ == antelope.IndexI128 || k.typ == antelope.IndexFloat128 {
		size = 16
	}
	if len(data) < k.offset+size {
		return antelope.TableKey{}, fmt.Errorf("a row of %d bytes has no key at bytes %d–%d", len(data), k.offset, k.offset+size)
	}
	b := data[k.offset : k.offset+size]
	switch k.typ {
	case antelope.IndexI128:
		return antelope.KeyUint128(antelope.Uint128{Lo: binary.LittleEndian.Uint64(b), Hi: binary.LittleEndian.Uint64(b[8:])}), nil
	case antelope.IndexFloat64:
		return antelope.KeyFloat64(math.Float64frombits(binary.LittleEndian.Uint64(b))), nil
	case antelope.IndexFloat128:
		var f antelope.Float128
		copy(f[:], b)
		return antelope.KeyFloat128(f), nil
	}
	return antelope.KeyUint64(binary.LittleEndian.Uint64(b)), nil
}

// TableKeys is what an ABI says of a table's indexes.
type TableKeys struct {
	InABI    bool              // the ABI declares the table
	Declared int               // len(key_types): 0 when it describes no keys
	Readers  map[int]KeyReader // learnt secondary indexes, by position (2, 3…)
	Bad      map[int]string    // declared secondary indexes that cannot be learnt, and why
}

// indexKeyTypes maps an ABI key type to the get_table_rows key type of an
// index whose key is read from a field of that size.
var indexKeyTypes = map[string]antelope.IndexKeyType{
	"uint64": antelope.IndexI64, "name": antelope.IndexI64, "i64": antelope.IndexI64,
	"uint128": antelope.IndexI128, "i128": antelope.IndexI128,
	"float64": antelope.IndexFloat64, "float128": antelope.IndexFloat128,
}

// keyKinds are the field types whose bytes are an index key of each
// type as they are: integers of the key's size (a name, a symbol, a
// time_point are 64-bit integers) for integer keys, the same float for
// float keys — a float key of an integer field is (double)field, whose
// bits are not the field's.
var keyKinds = map[antelope.IndexKeyType]map[string]bool{
	antelope.IndexI64:      {"uint64": true, "int64": true, "name": true, "symbol": true, "symbol_code": true, "time_point": true},
	antelope.IndexI128:     {"uint128": true, "int128": true},
	antelope.IndexFloat64:  {"float64": true},
	antelope.IndexFloat128: {"float128": true},
}

// fixedSizes are the sizes of the ABI's fixed-size built-in types.
var fixedSizes = map[string]int{
	"bool": 1, "int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "float32": 4,
	"time_point_sec": 4, "block_timestamp_type": 4, "int64": 8, "uint64": 8, "float64": 8, "name": 8,
	"symbol": 8, "symbol_code": 8, "time_point": 8, "int128": 16, "uint128": 16, "float128": 16,
	"asset": 16, "checksum160": 20, "checksum256": 32, "checksum512": 64, "extended_asset": 24,
}

// ReadTableKeys reads table's key_names and key_types from abiJSON.
func ReadTableKeys(abiJSON []byte, table antelope.Name) (TableKeys, error) {
	var abi struct {
		Types []struct {
			New  string `json:"new_type_name"`
			Type string `json:"type"`
		} `json:"types"`
		Structs []struct {
			Name   string `json:"name"`
			Base   string `json:"base"`
			Fields []struct {
				Name string `json:"name"`
				Type string `json:"type"`
			} `json:"fields"`
		} `json:"structs"`
		Tables []struct {
			Name     string   `json:"name"`
			Type     string   `json:"type"`
			KeyNames []string `json:"key_names"`
			KeyTypes []string `json:"key_types"`
		} `json:"tables"`
	}
	var out TableKeys
	if len(abiJSON) == 0 {
		return out, nil
	}
	if err := json.Unmarshal(abiJSON, &abi); err != nil {
		return out, err
	}
	alias := map[string]string{}
	for _, t := range abi.Types {
		alias[t.New] = t.Type
	}
	resolve := func(t string) string {
		for range 32 {
			a, ok := alias[t]
			if !ok {
				break
			}
			t = a
		}
		return t
	}
	type field struct{ name, typ string }
	structs := map[string][]field{}
	bases := map[string]string{}
	for _, s := range abi.Structs {
		for _, f := range s.Fields {
			structs[s.Name] = append(structs[s.Name], field{f.Name, f.Type})
		}
		if _, ok := structs[s.Name]; !ok {
			structs[s.Name] = nil
		}
		bases[s.Name] = s.Base
	}
	// fields lists a struct's fields, its bases' first.
	var fields func(name string, depth int) []field
	fields = func(name string, depth int) []field {
		if depth > 32 {
			return nil
		}
		var out []field
		if b := bases[name]; b != "" {
			out = fields(resolve(b), depth+1)
		}
		return append(out, structs[name]...)
	}
	var size func(t string, depth int) (int, bool)
	size = func(t string, depth int) (int, bool) {
		t = resolve(t)
		if n, ok := fixedSizes[t]; ok {
			return n, true
		}
		if _, ok := structs[t]; !ok || depth > 32 || strings.ContainsAny(t, "?[]$") {
			return 0, false
		}
		total := 0
		for _, f := range fields(t, 0) {
			n, ok := size(f.typ, depth+1)
			if !ok {
				return 0, false
			}
			total += n
		}
		return total, true
	}
	for _, t := range abi.Tables {
		if n, err := antelope.ParseName(t.Name); err != nil || n != table {
			continue
		}
		out.InABI = true
		out.Declared = len(t.KeyTypes)
		out.Readers, out.Bad = map[int]KeyReader{}, map[int]string{}
		row := fields(resolve(t.Type), 0)
		for i := 1; i < len(t.KeyTypes); i++ {
			pos := i + 1
			kt, ok := indexKeyTypes[t.KeyTypes[i]]
			if !ok {
				out.Bad[pos] = "its key type " + t.KeyTypes[i] + " is not one a fork reads from a row"
				continue
			}
			if i >= len(t.KeyNames) {
				out.Bad[pos] = "its ABI names no field for it (key_names)"
				continue
			}
			offset, found := 0, false
			for _, f := range row {
				if f.name == t.KeyNames[i] {
					want := 8
					if kt == antelope.IndexI128 || kt == antelope.IndexFloat128 {
						want = 16
					}
					n, _ := size(f.typ, 0)
					found = n == want && keyKinds[kt][resolve(f.typ)]
					break
				}
				n, ok := size(f.typ, 0)
				if !ok {
					break
				}
				offset += n
			}
			if !found {
				out.Bad[pos] = "its field " + t.KeyNames[i] + " is not a " + t.KeyTypes[i] + " at a fixed offset of " + t.Type + " (nor an integer of its size, for an integer key)"
				continue
			}
			out.Readers[pos] = KeyReader{offset: offset, typ: kt}
		}
		break
	}
	return out, nil
}
