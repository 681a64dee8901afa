// Package hostileabi builds ABIs shaped to make a careless walker of the
// type graph take exponential time, for the tests of the packages that
// walk it (model, gen, abicodec).
package hostileabi

import (
	"fmt"
	"strings"
)

// Wide returns an ABI of levels structs s0, s1…, each holding width fields
// of the next, the last width fields of leaf (a built-in, or "empty", a
// struct without fields): width^levels paths through the struct graph in a
// few kilobytes. Struct top holds an array of s0, and action act takes a
// top, so that a decoder meets the array: {"list":[]} is the byte 0.
func Wide(levels, width int, leaf string) []byte {
	structs := []string{`{"name":"empty","base":"","fields":[]}`, `{"name":"top","base":"","fields":[{"name":"list","type":"s0[]"}]}`}
	for k := range levels {
		next := leaf
		if k+1 < levels {
			next = fmt.Sprintf("s%d", k+1)
		}
		fields := make([]string, width)
		for i := range fields {
			fields[i] = fmt.Sprintf(`{"name":"f%d","type":%q}`, i, next)
		}
		structs = append(structs, fmt.Sprintf(`{"name":"s%d","base":"","fields":[%s]}`, k, strings.Join(fields, ",")))
	}
	return []byte(`{"version":"eosio::abi/1.1","structs":[` + strings.Join(structs, ",") +
		`],"actions":[{"name":"act","type":"top","ricardian_contract":""}]}`)
}
