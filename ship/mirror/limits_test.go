package mirror

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// packer builds packed values by hand, independently of the decoders.
type packer struct{ bytes.Buffer }

func (p *packer) le(v any) *packer { binary.Write(&p.Buffer, binary.LittleEndian, v); return p }
func (p *packer) raw(b ...byte) *packer {
	p.Write(b)
	return p
}
func (p *packer) str(s string) *packer { return p.raw(byte(len(s))).raw([]byte(s)...) }

func repeat(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }

// Every built-in type at its limits goes into its column and comes back
// exactly: 64-bit unsigned and 128-bit integers beyond BIGINT, the extreme
// floats, times far outside what SQL timestamps hold, names and symbols at
// their longest.
func TestValuesAtLimits(t *testing.T) {
	wax := antelope.MustName("eosio.token")
	sym := []byte{18, 'Z', 'Z', 'Z', 'Z', 'Z', 'Z', 'Z'}
	var p packer
	p.le(uint64(7))                       // id
	p.raw(1)                              // bool
	p.le(int8(-128)).le(uint8(255))       // int8, uint8
	p.le(int16(-32768)).le(uint16(65535)) // int16, uint16
	p.le(int32(math.MinInt32)).le(uint32(math.MaxUint32))
	p.le(int64(math.MinInt64)).le(uint64(math.MaxUint64))
	p.raw(append(repeat(0, 15), 0x80)...)  // int128 min
	p.raw(repeat(0xff, 16)...)             // uint128 max
	p.raw(0xff, 0xff, 0xff, 0xff, 0x0f)    // varint32 min (zigzag)
	p.raw(0xff, 0xff, 0xff, 0xff, 0x0f)    // varuint32 max
	p.le(math.Float32frombits(0x7f7fffff)) // float32 max
	p.le(math.Float64frombits(1))          // float64 smallest denormal
	p.raw(repeat(0xab, 16)...)             // float128
	p.le(int64(math.MinInt64))             // time_point
	p.le(uint32(math.MaxUint32))           // time_point_sec
	p.le(uint32(math.MaxUint32))           // block_timestamp_type
	p.le(uint64(math.MaxUint64))           // name
	p.raw(4, 0, 0xff, '\'', '"')           // bytes
	p.str(`it's "quoted" ✓`)               // string
	p.raw(repeat(0xff, 20)...).raw(repeat(0xee, 32)...).raw(repeat(0xdd, 64)...)
	p.raw(0).raw(repeat(0, 33)...)                                   // public_key
	p.raw(0).raw(repeat(0, 65)...)                                   // signature
	p.raw(sym...)                                                    // symbol
	p.raw(sym[1:]...).raw(0)                                         // symbol_code
	p.le(int64(1<<62 - 1)).raw(sym...)                               // asset
	p.le(int64(-(1<<62 - 1))).raw(sym...).le(uint64(math.MaxUint64)) // extended_asset
	pk := antelope.PublicKey{Type: 0, Data: make([]byte, 33)}
	sig := antelope.Signature{Type: 0, Data: make([]byte, 65)}
	want := []string{
		"7", "1", "-128", "255", "-32768", "65535", "-2147483648", "4294967295",
		"-9223372036854775808", "18446744073709551615",
		"-170141183460469231731687303715884105728", "340282366920938463463374607431768211455",
		"-2147483648", "4294967295",
		"3.4028234663852886e+38", "5e-324",
		"0x" + strings.Repeat("ab", 16),
		"-9223372036854775808", "4294967295000000", "2147483647500000" + "", // slots: 2^32−1 half-seconds after 2000
		"zzzzzzzzzzzzj", "\x00\xff'\"", `it's "quoted" ✓`,
		strings.Repeat("ff", 20), strings.Repeat("ee", 32), strings.Repeat("dd", 64),
		pk.String(), sig.String(),
		"18,ZZZZZZZ", "ZZZZZZZ",
		"4611686018427387903", "18,ZZZZZZZ",
		"-4611686018427387903", "18,ZZZZZZZ", "zzzzzzzzzzzzj",
	}
	// block_timestamp_type 2^32−1: (2^32−1)·500 ms after 2000-01-01, in µs.
	want[19] = "3094168447500000"
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			db, d := dbk.open(t)
			_, abi := loadModel(t, "testdata/hostile.abi.json")
			m, err := Open(context.Background(), db, d, abi, Options{Contract: wax})
			if err != nil {
				t.Fatal(err)
			}
			tbl := m.tableByABIName("limits")
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			if err := m.writeRow(context.Background(), tx, tbl, "eosio.token", "zzzzzzzzzzzzj", "18446744073709551615", "alice", p.Bytes()); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			got := make([]any, len(tbl.Columns))
			ptrs := make([]any, len(got))
			for i := range got {
				ptrs[i] = &got[i]
			}
			if err := db.QueryRow(`SELECT * FROM "limits"`).Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			if g := normalize(got[2]); g != "18446744073709551615" {
				t.Errorf("primary_key %s", g)
			}
			for i, w := range want {
				c := tbl.Columns[tbl.meta+i]
				if g := normalize(got[tbl.meta+i]); g != w {
					t.Errorf("%s: %q, want %q", c.Name, g, w)
				}
			}
			if raw := got[len(got)-1].([]byte); !bytes.Equal(raw, p.Bytes()) {
				t.Errorf("_raw %x", raw)
			}
		})
	}
}

// A row of the hostile ABI: every field lands in its own column whatever
// its name; nested values are nodeos's JSON; an absent optional and an
// absent binary extension are NULL; a string PostgreSQL cannot hold keeps
// what it can (its bytes are in _raw).
func TestHostileRow(t *testing.T) {
	var p packer
	p.le(uint64(antelope.MustName("alice")))         // owner
	p.le(uint64(math.MaxUint64))                     // select
	p.le(uint64(antelope.MustName("bob")))           // a"b
	p.le(int32(-1)).le(int32(2))                     // Amount, amount
	p.str("a\x00b\xff")                              // x; DROP TABLE…
	p.le(uint64(antelope.MustName("carol")))         // code
	p.raw(2, 0xca, 0xfe)                             // _raw
	p.le(int64(5)).raw(4, 'W', 'A', 'X', 0, 0, 0, 0) // bal
	p.le(int64(-6))                                  // bal_amount
	p.raw(1, 2, 3, 4)                                // the long names, tab, ünï
	p.raw(0)                                         // opt: absent
	p.raw(2).le(uint16(1)).le(uint16(65535))         // list
	p.str("x\"y").le(int64(-7))                      // pair
	p.raw(2).str("z").le(int64(8))                   // choice: pair
	p.le(int64(1_700_000_000_123_456))               // when
	// ext: absent
	strCol := "a\x00b\xff"
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			db, d := dbk.open(t)
			_, abi := loadModel(t, "testdata/hostile.abi.json")
			m, err := Open(context.Background(), db, d, abi, Options{Contract: token})
			if err != nil {
				t.Fatal(err)
			}
			want := strCol
			if d == Postgres {
				want = "a\uFFFDb\uFFFD"
			}
			for _, table := range []string{"select", "order"} {
				tbl := m.tableByABIName(table)
				tx, _ := db.Begin()
				if err := m.writeRow(context.Background(), tx, tbl, "eosio.token", "alice", "1", "alice", p.Bytes()); err != nil {
					t.Fatal(err)
				}
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				got := map[string]string{}
				vals := make([]any, len(tbl.Columns))
				ptrs := make([]any, len(vals))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := db.QueryRow(`SELECT * FROM ` + quote(tbl.SQLName)).Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				for i, c := range tbl.Columns {
					got[c.Name] = normalize(vals[i])
				}
				for col, w := range map[string]string{
					"code": "eosio.token", "owner": "alice", "select": "18446744073709551615", `a"b`: "bob",
					"Amount": "-1", "amount_2": "2", "x; DROP TABLE accounts; --": want, "code_2": "carol",
					"_raw_2": "\xca\xfe", "bal_amount": "5", "bal_symbol": "4,WAX", "bal_amount_2": "-6",
					"tab_here": "3", "ünï": "4", "opt": "NULL", "list": "[1,65535]",
					"pair": `{"first":"x\"y","second":-7}`, "choice": `["pair",{"first":"z","second":8}]`,
					"when": "1700000000123456", "ext_amount": "NULL", "ext_symbol": "NULL",
				} {
					if got[col] != w {
						t.Errorf("%s.%s = %q, want %q", table, col, got[col], w)
					}
				}
			}
		})
	}
}
