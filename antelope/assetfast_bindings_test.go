package antelope_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Assets inside the values that hold them (a generated binding's row,
// ExtendedAsset as an object and as nodeos's array, a row list), with
// neighbours the fast path's eight-byte loads reach (the next field's
// name, a contract name, the next row's digits): each reads as its text
// alone (ParseAsset), or fails when that text does.
func TestAssetsInsideValuesReadAsAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 3))
	n := 20000
	if testing.Short() {
		n = 4000
	}
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for range n {
		digits := strconv.FormatUint(r.Uint64()>>r.IntN(64), 10)
		if p := r.IntN(20); p > 0 && p < len(digits) {
			digits = digits[:len(digits)-p] + "." + digits[len(digits)-p:]
		}
		if r.IntN(2) == 0 {
			digits = "-" + digits
		}
		code := make([]byte, r.IntN(9))
		for i := range code {
			code[i] = letters[r.IntN(len(letters))]
		}
		text := digits + " " + string(code)
		if r.IntN(4) == 0 { // cut: a text ending in digits, a point, a sign
			text = text[:r.IntN(len(text)+1)]
		}
		want, wantErr := antelope.ParseAsset(text)
		q := strconv.Quote(text)

		var acct eosiotoken.Account
		err := antelope.UnmarshalJSON([]byte(`{"balance":`+q+`,"x":"12345678ABCDEFGH"}`), &acct)
		checkReadAsAlone(t, "Account", text, acct.Balance, err, want, wantErr)

		var rows []eosiotoken.Account
		err = antelope.UnmarshalJSON([]byte(`[{"balance":`+q+`},{"balance":`+q+`}]`), &jsonRows{&rows})
		if err == nil && len(rows) == 2 {
			checkReadAsAlone(t, "row 2", text, rows[1].Balance, err, want, wantErr)
		}
		checkReadAsAlone(t, "rows", text, firstBalance(rows), err, want, wantErr)

		var ext antelope.ExtendedAsset
		err = antelope.UnmarshalJSON([]byte(`{"quantity":`+q+`,"contract":"eosio.token"}`), &ext)
		checkReadAsAlone(t, "ExtendedAsset", text, ext.Quantity, err, want, wantErr)
		ext = antelope.ExtendedAsset{}
		err = antelope.UnmarshalJSON([]byte(`[`+q+`,"eosio.token"]`), &ext)
		checkReadAsAlone(t, "ExtendedAsset array", text, ext.Quantity, err, want, wantErr)
	}
}

func checkReadAsAlone(t *testing.T, where, text string, got antelope.Asset, err error, want antelope.Asset, wantErr error) {
	t.Helper()
	if (err == nil) != (wantErr == nil) || err == nil && got != want {
		t.Fatalf("%q in %s: %+v, %v; alone %+v, %v", text, where, got, err, want, wantErr)
	}
}

func firstBalance(rows []eosiotoken.Account) antelope.Asset {
	if len(rows) == 0 {
		return antelope.Asset{}
	}
	return rows[0].Balance
}

// jsonRows reads a JSON array of accounts.
type jsonRows struct{ rows *[]eosiotoken.Account }

func (j *jsonRows) DecodeJSON(r *antelope.JSONReader) error {
	if err := r.BeginArray(); err != nil {
		return err
	}
	for {
		more, err := r.NextElement()
		if err != nil || !more {
			return err
		}
		var a eosiotoken.Account
		if err := a.DecodeJSON(r); err != nil {
			return err
		}
		*j.rows = append(*j.rows, a)
	}
}
