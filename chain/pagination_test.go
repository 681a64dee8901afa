package chain_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
)

// A table of 1,000 rows with a secondary index of every key type, read
// through the client with every page size from 1 to 7 — chaintest cuts each
// page short the way nodeos's time limit does, next_key repeating the last
// row — forward and in reverse, with bounds on every key type: each read
// must return exactly the rows it selects, in order, none lost or repeated.
// (Secondary indexes from 2 up: see the comment in the test.)

var (
	paged      = antelope.MustName("paged")
	pagedTable = antelope.MustName("rows")
)

const pagedABI = `{"version":"eosio::abi/1.1","structs":[{"name":"row","base":"","fields":[{"name":"id","type":"uint64"}]}],` +
	`"tables":[{"name":"rows","index_type":"i64","key_names":["id"],"key_types":["uint64"],"type":"row"}]}`

type pagedRow struct {
	pk   uint64
	data []byte
	keys []antelope.TableKey // index positions 2…
}

// indexTypes are the secondary indexes, in index order (position 2…).
var indexTypes = []antelope.IndexKeyType{antelope.IndexI64, antelope.IndexI128, antelope.IndexFloat64,
	antelope.IndexFloat128, antelope.IndexSHA256, antelope.IndexI256, antelope.IndexRipemd160}

func pagedKeys(i int) []antelope.TableKey {
	h := sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(i)))
	var r160 antelope.Checksum160
	copy(r160[:], h[12:])
	f := float64(int64(binary.BigEndian.Uint64(h[:8]))) / 7.0 // negative and positive, fractions
	return []antelope.TableKey{
		antelope.KeyUint64(binary.BigEndian.Uint64(h[8:16])),
		antelope.KeyUint128(antelope.Uint128{Hi: binary.BigEndian.Uint64(h[16:24]), Lo: binary.BigEndian.Uint64(h[24:])}),
		antelope.KeyFloat64(f),
		antelope.KeyFloat128(antelope.Float128FromFloat64(f * 3)),
		antelope.KeySHA256(h),
		antelope.KeyI256(sha256.Sum256(h[:])),
		antelope.KeyRipemd160(r160),
	}
}

func pagedChain(t *testing.T, n int, opts ...chaintest.Option) (*chaintest.Chain, []pagedRow) {
	t.Helper()
	c := chaintest.New(opts...)
	t.Cleanup(c.Close)
	if err := c.SetContract(paged, []byte(pagedABI), nil); err != nil {
		t.Fatal(err)
	}
	var rows []pagedRow
	for i := range n {
		pk := uint64(i)*7919 + 3 // not dense
		data := binary.LittleEndian.AppendUint64(nil, pk)
		keys := pagedKeys(i)
		c.SetTableRow(paged, paged, pagedTable, pk, data, paged, keys...)
		rows = append(rows, pagedRow{pk, data, keys})
	}
	return c, rows
}

// compareKey orders keys as an index does (floats by value).
func compareKey(a, b antelope.TableKey) int {
	switch a.Type() {
	case antelope.IndexFloat64:
		return cmpFloat(a.Float64(), b.Float64())
	case antelope.IndexFloat128:
		x, y := a.Bytes(), b.Bytes()
		return cmpFloat(f128(x), f128(y))
	}
	x, y := a.Bytes(), b.Bytes()
	return bytes.Compare(x[:], y[:])
}

// f128 reads back the float64 a test key was made from.
func f128(b [32]byte) float64 {
	var f antelope.Float128
	copy(f[:], b[16:])
	for _, v := range []float64{} {
		_ = v
	}
	hi := binary.LittleEndian.Uint64(f[8:])
	lo := binary.LittleEndian.Uint64(f[:8])
	sign := hi >> 63
	exp := int((hi>>48)&0x7fff) - 16383 + 1023
	frac := (hi&(1<<48-1))<<4 | lo>>60
	if hi&^(1<<63) == 0 && lo == 0 {
		return math.Copysign(0, -float64(sign))
	}
	return math.Float64frombits(sign<<63 | uint64(exp)<<52 | frac)
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// expected is what a query selects, computed from the rows directly.
func expected(rows []pagedRow, q antelope.TableQuery) [][]byte {
	key := func(r pagedRow) antelope.TableKey {
		if q.Index <= 1 {
			return antelope.KeyUint64(r.pk)
		}
		return r.keys[q.Index-2]
	}
	sel := slices.Clone(rows)
	slices.SortFunc(sel, func(a, b pagedRow) int {
		if c := compareKey(key(a), key(b)); c != 0 {
			return c
		}
		return cmpFloat(float64(a.pk), float64(b.pk))
	})
	var out [][]byte
	for _, r := range sel {
		k := key(r)
		if !q.Lower.IsZero() && compareKey(k, q.Lower) < 0 || !q.Upper.IsZero() && compareKey(k, q.Upper) > 0 {
			continue
		}
		out = append(out, r.data)
	}
	if q.Reverse {
		slices.Reverse(out)
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out
}

func readAll(t *testing.T, r antelope.TableReader, q antelope.TableQuery) [][]byte {
	t.Helper()
	var out [][]byte
	for row, err := range r.TableRows(t.Context(), q) {
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		out = append(out, row.Data)
	}
	return out
}

func sameRows(t *testing.T, what string, got, want [][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("%s: row %d is %x, want %x", what, i, got[i], want[i])
			return
		}
	}
}

func TestPaginationEveryKeyType(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of pages")
	}
	for cut := 1; cut <= 7; cut++ {
		if raceEnabled && cut%3 != 1 {
			continue // 1, 4, 7 under the race detector
		}
		c, rows := pagedChain(t, 1000, chaintest.WithPageSize(cut))
		cl := c.Client()
		for index := 1; index <= 1+len(indexTypes); index++ {
			if index > 1 && cut == 1 {
				// A node that returns one row per request cannot be paged
				// through a secondary index by any client: its next_key does
				// not say whether that row was returned, and many rows may
				// share it. The primary key is unique, so that works.
				continue
			}
			// Bounds: two row keys of this index, a quarter and three
			// quarters in.
			q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, Index: index, PageSize: 3 + cut}
			keyAt := func(i int) antelope.TableKey {
				if index == 1 {
					return antelope.KeyUint64(rows[i].pk)
				}
				return rows[i].keys[index-2]
			}
			if index > 1 {
				q.KeyType = indexTypes[index-2]
			}
			lo, hi := keyAt(250), keyAt(750)
			if compareKey(lo, hi) > 0 {
				lo, hi = hi, lo
			}
			for _, reverse := range []bool{false, true} {
				for _, bounds := range []string{"none", "lower", "upper", "both"} {
					if bounds != "both" && (index > 1 && cut != 2 || index == 1 && cut > 2 && cut != 7) {
						continue // every bound on every index at two page sizes; both bounds everywhere (whole-table reads at every size would be slow)
					}
					qq := q
					qq.Reverse = reverse
					if index == 1 && bounds != "none" {
						qq.Key = pagedKey // the rows' keys checked against the bounds
					}
					if bounds == "lower" || bounds == "both" {
						qq.Lower = lo
					}
					if bounds == "upper" || bounds == "both" {
						qq.Upper = hi
					}
					what := fmt.Sprintf("cut %d, index %d (%s), reverse %v, bounds %s", cut, index, q.KeyType, reverse, bounds)
					sameRows(t, what, readAll(t, cl, qq), expected(rows, qq))
				}
			}
		}
	}
}

// TestPaginationLimit: Limit stops the read early, and no request is made
// past it.
func TestPaginationLimit(t *testing.T) {
	c, rows := pagedChain(t, 100, chaintest.WithPageSize(3))
	cl := c.Client()
	q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, Limit: 10, PageSize: 4}
	sameRows(t, "limit 10", readAll(t, cl, q), expected(rows, q))
	before := c.Stats().Requests
	n := 0
	for range cl.TableRows(t.Context(), antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, PageSize: 5}) {
		if n++; n == 2 {
			break
		}
	}
	if got := c.Stats().Requests - before; got != 1 {
		t.Errorf("stopping after 2 rows made %d requests", got)
	}
}

// TestPaginationEqualSecondaryKeys: runs of rows with one secondary key,
// longer than a page: the bound cannot move, so the client asks for more
// rows each time, and still returns every row once.
func TestPaginationEqualSecondaryKeys(t *testing.T) {
	c := chaintest.New()
	t.Cleanup(c.Close)
	if err := c.SetContract(paged, []byte(pagedABI), nil); err != nil {
		t.Fatal(err)
	}
	var rows []pagedRow
	for i := range 300 {
		pk := uint64(i)
		data := binary.LittleEndian.AppendUint64(nil, pk)
		keys := []antelope.TableKey{antelope.KeyUint64(uint64(i % 7)), antelope.KeyUint128(antelope.Uint128{Lo: uint64(i % 3)}),
			antelope.KeyFloat64(float64(i%5) - 2), antelope.KeyFloat128(antelope.Float128FromFloat64(float64(i % 4))),
			antelope.KeySHA256(sha256.Sum256([]byte{byte(i % 6)})), antelope.KeyI256(antelope.Checksum256{31: byte(i % 2)}),
			antelope.KeyRipemd160(antelope.Checksum160{0: byte(i % 9)})}
		c.SetTableRow(paged, paged, pagedTable, pk, data, paged, keys...)
		rows = append(rows, pagedRow{pk, data, keys})
	}
	cl := c.Client()
	for index := 2; index <= 1+len(indexTypes); index++ {
		for _, pageSize := range []int{1, 2, 5, 7} {
			for _, reverse := range []bool{false, true} {
				q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, Index: index, KeyType: indexTypes[index-2],
					PageSize: pageSize, Reverse: reverse}
				sameRows(t, fmt.Sprintf("index %d page %d reverse %v", index, pageSize, reverse), readAll(t, cl, q), expected(rows, q))
			}
		}
	}
}

// TestScopesPagination pages through get_table_by_scope with short pages.
func TestScopesPagination(t *testing.T) {
	c := chaintest.New(chaintest.WithPageSize(2))
	t.Cleanup(c.Close)
	if err := c.SetContract(paged, []byte(pagedABI), nil); err != nil {
		t.Fatal(err)
	}
	var want []antelope.Name
	for i := range 57 {
		// Names that look like numbers ("12345") must not be read as them.
		scope := antelope.MustName(fmt.Sprintf("%d%s", 11111+i%5, string(rune('a'+i%26))))
		c.SetTableRow(paged, scope, pagedTable, 1, []byte{1}, paged)
		want = append(want, scope)
	}
	c.SetTableRow(paged, antelope.MustName("12345"), pagedTable, 1, []byte{1}, paged)
	want = append(want, antelope.MustName("12345"))
	slices.Sort(want)
	want = slices.Compact(want)
	for _, reverse := range []bool{false, true} {
		var got []antelope.Name
		for s, err := range c.Client().Scopes(t.Context(), chain.ScopeQuery{Code: paged, Table: pagedTable, PageSize: 3, Reverse: reverse}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, s.Scope)
		}
		w := slices.Clone(want)
		if reverse {
			slices.Reverse(w)
		}
		if !slices.Equal(got, w) {
			t.Errorf("reverse %v: %v\nwant %v", reverse, got, w)
		}
	}
}
