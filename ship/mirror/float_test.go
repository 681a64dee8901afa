package mirror

import (
	"context"
	"database/sql"
	"encoding/binary"
	"math"
	"testing"
)

const floatsABI = `{"version":"eosio::abi/1.2","structs":[{"name":"floats","base":"","fields":[
	{"name":"id","type":"uint64"},{"name":"f","type":"float32"},{"name":"d","type":"float64"}]}],
	"tables":[{"name":"floats","type":"floats","index_type":"i64","key_names":[],"key_types":[]}]}`

// A float column holds exactly the value the row holds: the sign of zero,
// infinities, denormals, and a NaN's payload, signaling or quiet, on the
// database that holds NaNs at all (SQLite stores a NaN as NULL, as
// documented).
func TestFloatsExact(t *testing.T) {
	cases := []struct {
		f32 uint32
		f64 uint64
	}{
		{0x80000000, 0x8000000000000000}, // -0
		{0x7f800000, 0xfff0000000000000}, // +inf, -inf
		{0x00000001, 0x0000000000000001}, // smallest denormals
		{0x7f800001, 0x7ff0000000000001}, // signaling NaNs
		{0xffc12345, 0xfff8000000abcdef}, // negative quiet NaNs with payloads
	}
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			db, d := dbk.open(t)
			m, err := Open(context.Background(), db, d, []byte(floatsABI), Options{Contract: token})
			if err != nil {
				t.Fatal(err)
			}
			tbl := m.tableByABIName("floats")
			for _, c := range cases {
				var p packer
				p.le(uint64(1)).le(c.f32).le(c.f64)
				tx, err := db.Begin()
				if err != nil {
					t.Fatal(err)
				}
				if err := m.writeRow(context.Background(), tx, tbl, "eosio.token", "s", "1", "alice", p.Bytes()); err != nil {
					t.Fatal(err)
				}
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				f, g := readFloatBits(t, db, d)
				nan32, nan64 := math.IsNaN(float64(math.Float32frombits(c.f32))), math.IsNaN(math.Float64frombits(c.f64))
				switch {
				case d == SQLite && nan32:
					if f != nil {
						t.Errorf("float32 %#x: %#x, want NULL", c.f32, *f)
					}
				case f == nil:
					t.Errorf("float32 %#x: NULL", c.f32)
				case *f != c.f32:
					t.Errorf("float32 %#x: stored as %#x", c.f32, *f)
				}
				switch {
				case d == SQLite && nan64:
					if g != nil {
						t.Errorf("float64 %#x: %#x, want NULL", c.f64, *g)
					}
				case g == nil:
					t.Errorf("float64 %#x: NULL", c.f64)
				case *g != c.f64:
					t.Errorf("float64 %#x: stored as %#x", c.f64, *g)
				}
			}
		})
	}
}

// readFloatBits reads the row's float columns bit for bit: on PostgreSQL
// in their binary form, since a float32 scanned into a float64 would have
// a signaling NaN quieted on the way (SQLite holds no NaN).
func readFloatBits(t *testing.T, db *sql.DB, d Dialect) (f32 *uint32, f64 *uint64) {
	t.Helper()
	if d == SQLite {
		var f, g *float64
		if err := db.QueryRow(`SELECT "f", "d" FROM "floats"`).Scan(&f, &g); err != nil {
			t.Fatal(err)
		}
		if f != nil {
			b := math.Float32bits(float32(*f))
			f32 = &b
		}
		if g != nil {
			b := math.Float64bits(*g)
			f64 = &b
		}
		return f32, f64
	}
	var bf, bg []byte
	if err := db.QueryRow(`SELECT float4send("f"), float8send("d") FROM "floats"`).Scan(&bf, &bg); err != nil {
		t.Fatal(err)
	}
	if bf != nil {
		b := binary.BigEndian.Uint32(bf)
		f32 = &b
	}
	if bg != nil {
		b := binary.BigEndian.Uint64(bg)
		f64 = &b
	}
	return f32, f64
}
