package rawabi

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

// Decode returns the packed ABI bytes of a get_raw_abi answer's abi
// (base64, with or without padding, right or wrong) and checks their
// sha256 against abiHash (hex). An empty abi is an account without one,
// whose hash is not checked; nor is an empty abiHash, or one of zeros,
// which is what nodeos sends when it has no hash to give.
func Decode(abi, abiHash string) ([]byte, error) {
	raw, err := Base64(abi)
	if err != nil {
		return nil, fmt.Errorf("abi is not base64: %v", err)
	}
	if len(raw) == 0 || strings.Trim(abiHash, "0") == "" {
		return raw, nil
	}
	if got := sha256.Sum256(raw); !strings.EqualFold(hex.EncodeToString(got[:]), abiHash) {
		return nil, fmt.Errorf("abi_hash %s does not match the ABI's sha256 %x", abiHash, got)
	}
	return raw, nil
}

// Base64 decodes what nodeos sends as base64 (get_raw_abi's abi,
// get_raw_code_and_abi's wasm and abi): with or without padding, right or
// wrong.
func Base64(s string) ([]byte, error) {
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}
