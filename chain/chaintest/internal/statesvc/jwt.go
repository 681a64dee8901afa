package statesvc

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The token service issues real JWTs (HS256, with iat and exp claims) and
// the state service checks their signature and expiry, so that a client
// that reads or mangles a token is caught as the real service would catch
// it.

func newSecret() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return b
}

func signJWT(secret []byte, iat, exp int64) string {
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	claims := enc.EncodeToString(fmt.Appendf(nil, `{"iat":%d,"exp":%d,"iss":"chaintest","jti":%q}`, iat, exp, enc.EncodeToString(newSecret()[:12])))
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(head + "." + claims))
	return head + "." + claims + "." + enc.EncodeToString(m.Sum(nil))
}

// checkJWT verifies tok's signature and expiry at now, and says why it
// fails ("" when it does not).
func checkJWT(secret []byte, tok string, now time.Time) string {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return "malformed token"
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(parts[0] + "." + parts[1]))
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, m.Sum(nil)) {
		return "invalid signature"
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	var claims struct {
		Exp int64 `json:"exp"`
	}
	if err != nil || json.Unmarshal(raw, &claims) != nil {
		return "malformed claims"
	}
	if now.Unix() >= claims.Exp {
		return "token expired"
	}
	return ""
}
