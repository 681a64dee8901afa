package exec

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// tableIndexes is a table's key_names and key_types in its ABI: the
// primary key first, then each secondary index in position order.
type tableIndexes struct {
	names, types []string
}

// abiKeyTypes maps an ABI key type (as abigen's typed ranges read it, or as
// get_table_rows names it) to the key types an index of it holds.
var abiKeyTypes = map[string][]antelope.IndexKeyType{
	"uint64": {antelope.IndexI64}, "name": {antelope.IndexI64}, "i64": {antelope.IndexI64},
	"uint128": {antelope.IndexI128}, "i128": {antelope.IndexI128},
	"float64": {antelope.IndexFloat64}, "float128": {antelope.IndexFloat128},
	"checksum256": {antelope.IndexSHA256, antelope.IndexI256}, "sha256": {antelope.IndexSHA256, antelope.IndexI256},
	"i256":        {antelope.IndexI256, antelope.IndexSHA256},
	"checksum160": {antelope.IndexRipemd160}, "ripemd160": {antelope.IndexRipemd160},
}

// check reports a row's secondary keys that do not fit the indexes the ABI
// describes: another number of keys, or a key of another type. An ABI that
// describes no keys (most do not) checks only that each key is one.
func (t tableIndexes) check(keys []antelope.TableKey) error {
	if len(t.types) > 0 && len(keys) != len(t.types)-1 {
		var list []string
		for i := 1; i < len(t.types); i++ {
			list = append(list, t.name(i)+" "+t.types[i])
		}
		what := strconv.Itoa(len(t.types)-1) + " (" + strings.Join(list, ", ") + ")"
		if len(list) == 0 {
			what = "none (only its primary key)"
		}
		return errors.New(strconv.Itoa(len(keys)) + " secondary keys, but its ABI describes " + what)
	}
	for i, k := range keys {
		index := "secondary key " + strconv.Itoa(i+1)
		if i+1 < len(t.types) {
			index = "index " + t.name(i+1)
		}
		index += " (position " + strconv.Itoa(i+2) + ")"
		if k.IsZero() {
			return errors.New(index + " has no key (the zero TableKey)")
		}
		if i+1 >= len(t.types) {
			continue
		}
		want, known := abiKeyTypes[t.types[i+1]]
		if known && !slices.Contains(want, k.Type()) {
			return errors.New(index + " takes " + t.types[i+1] + " keys, not " + k.String())
		}
	}
	return nil
}

// name is the key name at i, or its number when the ABI names none.
func (t tableIndexes) name(i int) string {
	if i < len(t.names) && t.names[i] != "" {
		return t.names[i]
	}
	return "#" + strconv.Itoa(i)
}
