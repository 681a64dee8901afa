package model

import (
	"strings"
	"testing"
)

// A JSON object with a "version" that is not an ABI's and none of an ABI's
// sections — a package.json, a manifest — is called what it is, not an ABI of
// an unsupported version; an ABI of a version abigen does not read still says
// that.
func TestVersionedJSONThatIsNotAnABI(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"name":"my-dapp","version":"1.0.0","dependencies":{"eosjs":"^22"}}`, `not an ABI: its "version" is "1.0.0"`},
		{`{"version":2}`, `not an ABI: its "version" is 2`},
		// A TypeScript package's package.json has "types" (its .d.ts file),
		// as @wharfkit/antelope's does: a string, never an ABI's array.
		{`{"name":"@wharfkit/antelope","version":"1.2.0","main":"lib/antelope.js","types":"lib/antelope.d.ts"}`, `not an ABI: its "version" is "1.2.0"`},
		{`{"version":"eosio::abi/2.0","structs":[]}`, `unsupported ABI version "eosio::abi/2.0"`},
		{`{"version":"1.0.0","structs":[]}`, `unsupported ABI version "1.0.0"`},
	} {
		src, err := Load([]byte(c.in))
		if err == nil {
			_, err = Resolve(src.ABI)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error containing %q", c.in, err, c.want)
		}
	}
}
