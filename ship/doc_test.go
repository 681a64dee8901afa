package ship_test

import (
	"testing"

	"github.com/antelopego/abigen/internal/doccheck"
)

// Every exported name of ship, ship/shiptest and the generated ship/protocol
// is documented.
func TestDocumented(t *testing.T) {
	for _, dir := range []string{".", "shiptest", "protocol"} {
		missing, err := doccheck.Undocumented(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range missing {
			t.Errorf("%s: undocumented", m)
		}
	}
}
