package mirror_test

import (
	"testing"

	"github.com/antelopego/abigen/internal/doccheck"
)

// Every exported name of ship/mirror is documented.
func TestDocumented(t *testing.T) {
	missing, err := doccheck.Undocumented(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Errorf("%s: undocumented", m)
	}
}
