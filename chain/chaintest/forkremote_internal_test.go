package chaintest

import (
	"fmt"
	"strings"
	"testing"
)

func TestRemoteNeverPrintsItsAPIKey(t *testing.T) {
	r := Remote{NodeURL: "https://node", StateURL: "https://state", APIKey: "sekrit-key-123", Block: 7}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(verb, r)
		if strings.Contains(out, "sekrit") || !strings.Contains(out, "https://node") || !strings.Contains(out, "<redacted>") {
			t.Errorf("%s: %s", verb, out)
		}
	}
	if out := fmt.Sprintf("%v", &r); strings.Contains(out, "sekrit") {
		t.Errorf("pointer: %s", out)
	}
}

// Node providers take API keys in the URL (?api_key=, user:password@):
// a printed Remote shows none of them.
func TestRemoteNeverPrintsSecretsOfItsURLs(t *testing.T) {
	r := Remote{NodeURL: "https://user:pass-sekrit@node/?api_key=q-sekrit", StateURL: "https://state/v0?token=s-sekrit",
		AuthURL: "https://auth/?key=a-sekrit"}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		if out := fmt.Sprintf(verb, r); strings.Contains(out, "sekrit") || !strings.Contains(out, "node") {
			t.Errorf("%s: %s", verb, out)
		}
	}
}
