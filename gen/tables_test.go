package gen

import (
	"os"
	"strings"
	"testing"
)

// A By<Key> range's documentation shows a read that works: through the
// Table variable when the ABI named an account, through
// Contract{Account: …} when it did not (the variable then has no account
// and its reads fail).
func TestIndexOptionDocShowsAWorkingRead(t *testing.T) {
	data, err := os.ReadFile("../golden/tablekeys/input.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ account, want string }{
		{"", "//\tfor row, err := range (Contract{Account: account}).TableOrders().Rows(ctx, reader, scope, OrdersByPrice(lower, upper)) {…}"},
		{"exchange", "//\tfor row, err := range TableOrders.Rows(ctx, reader, scope, OrdersByPrice(lower, upper)) {…}"},
	} {
		res, err := generateBytes(data, Options{Package: "tablekeys"}, c.account)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.Files["tables.go"]); !strings.Contains(got, c.want) {
			t.Errorf("account %q: no %q in\n%s", c.account, c.want, got)
		}
	}
}
