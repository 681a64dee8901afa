package exec

import (
	"testing"

	"github.com/antelopego/abigen/internal/doccheck"
)

// TestEverythingExportedIsDocumented: every exported name of the package
// has a doc comment.
func TestEverythingExportedIsDocumented(t *testing.T) {
	missing, err := doccheck.Undocumented(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Error("undocumented: " + m)
	}
}
