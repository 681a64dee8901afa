package state

import (
	"strings"
	"testing"
	"time"
)

// A token no Authorization header could carry is refused: a space or
// line break would split or end the header, and a byte outside ASCII
// (FuzzStateAnswers found one of invalid UTF-8) is no b64token, and cost
// its registration as a secret many times its size.
func TestDecodeTokenRefusesWhatNoHeaderCarries(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	for _, tok := range []string{
		"eyJ.eyJ sig", "eyJ.eyJ\tsig", "eyJ.eyJ\r\nX-Other: 1", "eyJ.eyJ\x00sig", "eyJ.eyJ\x7fsig",
		"eyJ.eyJ\xb0sig", "eyJ.eyJ.sigé", "eyJ.eyJ.\u2028sig",
	} {
		body := `{"token":"` + strings.ReplaceAll(strings.ReplaceAll(tok, "\r", `\r`), "\n", `\n`) + `","expires_at":1800000000}`
		body = strings.ReplaceAll(strings.ReplaceAll(body, "\t", `\t`), "\x00", `\u0000`)
		if got, err := decodeToken([]byte(body), now); err == nil || !strings.Contains(err.Error(), "not one header value") {
			t.Errorf("%q: got %+v, %v; want the token refused as no header value", tok, got, err)
		}
	}
	long := `{"token":"` + strings.Repeat("a", maxTokenLen+1) + `","expires_at":1800000000}`
	if got, err := decodeToken([]byte(long), now); err == nil || !strings.Contains(err.Error(), "more than a header carries") {
		t.Errorf("a token of %d bytes: got %d bytes, %v; want it refused", maxTokenLen+1, len(got.Token), err)
	}
	for _, tok := range []string{"eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl", "abc-_~+/=.!#$%&'*^`|", strings.Repeat("b", maxTokenLen)} {
		body := `{"token":"` + tok + `","expires_at":1800000000}`
		if got, err := decodeToken([]byte(body), now); err != nil || got.Token != tok {
			t.Errorf("%q: got %+v, %v; want it accepted", tok, got, err)
		}
	}
}
