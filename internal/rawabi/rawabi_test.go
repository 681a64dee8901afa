package rawabi

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	packed := []byte("\x0eeosio::abi/1.1\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	sum := sha256.Sum256(packed)
	hash := hex.EncodeToString(sum[:])
	b64 := base64.StdEncoding.EncodeToString(packed)
	for _, c := range []struct {
		name, abi, hash string
		err             string
	}{
		{"padded", b64, hash, ""},
		{"a pad too many (older nodeos)", b64 + "=", hash, ""},
		{"no padding", strings.TrimRight(b64, "="), strings.ToUpper(hash), ""},
		{"no hash", b64, "", ""},
		{"wrong hash", b64, strings.Repeat("ab", 32), "abi_hash abab"},
		{"not base64", "!!!", hash, "abi is not base64"},
		{"no ABI, zero hash", "", strings.Repeat("0", 64), ""},
		{"zero hash: none given", b64, strings.Repeat("0", 64), ""},
	} {
		raw, err := Decode(c.abi, c.hash)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case c.err == "" && c.abi != "" && string(raw) != string(packed):
			t.Errorf("%s: decoded %x", c.name, raw)
		}
	}
}
