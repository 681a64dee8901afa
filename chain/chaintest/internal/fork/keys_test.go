package fork

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

const keysABI = `{"version":"eosio::abi/1.1","types":[{"new_type_name":"amount","type":"asset"}],
"structs":[
 {"name":"head","base":"","fields":[{"name":"flag","type":"uint8"}]},
 {"name":"rec","base":"head","fields":[{"name":"id","type":"uint64"},{"name":"bal","type":"amount"},{"name":"who","type":"name"},
   {"name":"big","type":"uint128"},{"name":"memo","type":"string"},{"name":"late","type":"uint64"}]}],
"tables":[{"name":"recs","type":"rec","index_type":"i64","key_names":["id","who","big","late","bal","nope","who"],
  "key_types":["uint64","name","uint128","uint64","uint64","uint64","checksum256"]}]}`

// Keys are read at the offsets the fields have (bases first, typedefs
// resolved), and an index is refused, with why, when its field follows a
// variable-size one, is of another size than its key, is not in the
// struct, or holds a key type a fork cannot read.
func TestReadTableKeysOffsets(t *testing.T) {
	k, err := ReadTableKeys([]byte(keysABI), antelope.MustName("recs"))
	if err != nil {
		t.Fatal(err)
	}
	if !k.InABI || k.Declared != 7 {
		t.Fatalf("inABI %v declared %d", k.InABI, k.Declared)
	}
	want := map[int]KeyReader{2: {offset: 1 + 8 + 16, typ: antelope.IndexI64}, 3: {offset: 1 + 8 + 16 + 8, typ: antelope.IndexI128}}
	if len(k.Readers) != len(want) || k.Readers[2] != want[2] || k.Readers[3] != want[3] {
		t.Fatalf("readers %+v, want %+v", k.Readers, want)
	}
	for pos, why := range map[int]string{4: "not a uint64 at a fixed offset", 5: "not a uint64 at a fixed offset", 6: "not a uint64 at a fixed offset", 7: "checksum256 is not one"} {
		if !strings.Contains(k.Bad[pos], why) {
			t.Errorf("position %d: %q, want it to say %q", pos, k.Bad[pos], why)
		}
	}
	row := make([]byte, 1+8+16+8+16)
	binary.LittleEndian.PutUint64(row[25:], uint64(antelope.MustName("alice")))
	binary.LittleEndian.PutUint64(row[33:], 5)
	binary.LittleEndian.PutUint64(row[41:], 7)
	if key, err := k.Readers[2].Read(row); err != nil || key != antelope.KeyName(antelope.MustName("alice")) {
		t.Fatalf("who: %v %v", key, err)
	}
	if key, err := k.Readers[3].Read(row); err != nil || key != antelope.KeyUint128(antelope.Uint128{Lo: 5, Hi: 7}) {
		t.Fatalf("big: %v %v", key, err)
	}
	if _, err := k.Readers[3].Read(row[:40]); err == nil {
		t.Fatal("a short row gave a key")
	}
}

// ReadTableKeys and the keys it reads never panic, and a key read is of its
// index's type.
func FuzzReadTableKeys(f *testing.F) {
	f.Add([]byte(keysABI), []byte("0123456789abcdef0123456789abcdef0123456789abcdef"))
	if b, err := os.ReadFile("testdata/wasm/exchange.abi"); err == nil {
		f.Add(b, []byte{1, 2, 3})
	}
	f.Fuzz(func(t *testing.T, abi, row []byte) {
		for _, table := range []string{"recs", "markets", "accounts"} {
			k, err := ReadTableKeys(abi, antelope.MustName(table))
			if err != nil {
				continue
			}
			for pos, r := range k.Readers {
				if _, bad := k.Bad[pos]; bad || pos < 2 || pos > k.Declared {
					t.Fatalf("position %d of %d is both read and refused, or out of range", pos, k.Declared)
				}
				if key, err := r.Read(row); err == nil && key.Type() != r.typ {
					t.Fatalf("a %s index read a %s key", r.typ, key.Type())
				}
			}
		}
	})
}

// A key type read from a field of another kind of the same size (a
// float64 key from a uint64 field's bits) is not that field's key: a
// contract converts (double)field, whose bits differ. Refused; integer
// kinds of one size (name, uint64, int64, symbol) share their bits.
func TestReadTableKeysRefusesAFieldOfAnotherKind(t *testing.T) {
	abi := `{"version":"eosio::abi/1.1","structs":[{"name":"rec","base":"","fields":[
 {"name":"id","type":"uint64"},{"name":"u","type":"uint64"},{"name":"f","type":"float64"},{"name":"n","type":"name"},
 {"name":"u128","type":"uint128"},{"name":"f128","type":"float128"},{"name":"t","type":"time_point"}]}],
"tables":[{"name":"recs","type":"rec","index_type":"i64",
 "key_names":["id","u","f","n","u128","f128","n","f","t"],
 "key_types":["uint64","float64","uint64","uint64","float128","uint128","name","float64","uint64"]}]}`
	k, err := ReadTableKeys([]byte(abi), antelope.MustName("recs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pos := range []int{2, 3, 5, 6} {
		if _, ok := k.Readers[pos]; ok || k.Bad[pos] == "" {
			t.Errorf("position %d is read (%+v), want it refused", pos, k.Readers[pos])
		}
	}
	for _, pos := range []int{4, 7, 8, 9} {
		if _, ok := k.Readers[pos]; !ok {
			t.Errorf("position %d refused: %s", pos, k.Bad[pos])
		}
	}
}
