package gen

import (
	"go/token"
	"strings"
	"testing"
)

// CheckPackageName accepts exactly the lower-case Go identifiers, and says
// why it refuses the rest.
func TestCheckPackageName(t *testing.T) {
	for _, c := range []struct{ name, why string }{
		{"randcontract", ""}, {"token2", ""}, {"eosio_token", ""}, {"x", ""},
		{"", "empty"}, {"type", "a Go keyword"}, {"go", "a Go keyword"},
		{"Rand", "lower-case letter"}, {"2fa", "lower-case letter"}, {"_x", "lower-case letter"},
		{"my-token", `'-' is not`}, {"tökén", "is not"},
	} {
		err := CheckPackageName(c.name)
		if (err == nil) != (c.why == "") || err != nil && !strings.Contains(err.Error(), c.why) {
			t.Errorf("CheckPackageName(%q) = %v, want %q", c.name, err, c.why)
		}
		// Every name it accepts is a Go identifier that is no keyword.
		if err == nil && (!token.IsIdentifier(c.name) || token.IsKeyword(c.name)) {
			t.Errorf("CheckPackageName(%q) accepted a name Go refuses", c.name)
		}
	}
}
