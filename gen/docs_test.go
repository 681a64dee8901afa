package gen_test

import (
	"path/filepath"
	"testing"

	"github.com/antelopego/abigen/internal/doccheck"
)

// TestGeneratedDocs: every exported name of every generated package (the
// golden ones and generated/) is documented, and so are the packages
// users call: go doc on them reads well.
func TestGeneratedDocs(t *testing.T) {
	dirs, _ := filepath.Glob("../golden/*/types.go")
	for i, d := range dirs {
		dirs[i] = filepath.Dir(d)
	}
	gens, _ := filepath.Glob("../generated/*/types.go")
	for _, d := range gens {
		dirs = append(dirs, filepath.Dir(d))
	}
	dirs = append(dirs, "../chain", "../chain/chaintest", "../chain/httpcore", "../chain/state", "../fetch", "../model", "../gen",
		"../pipeline", "../abidiff", "../internal/rawabi")
	for _, d := range dirs {
		missing, err := doccheck.Undocumented(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range missing {
			t.Error("undocumented: " + m)
		}
	}
}
