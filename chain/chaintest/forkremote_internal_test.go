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
