package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/antelopego/abigen/chain/chaintest"
)

// The private keys file is readable by its owner only, also when a file of
// that name already exists with a wider mode (os.WriteFile keeps it).
func TestKeysFileIsOwnerOnlyEvenWhenItExisted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	keys := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(keys, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(keys, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	node := chaintest.New(chaintest.WithoutNetwork())
	defer node.Close()
	if err := setUp(node, &config{accounts: []string{"alice"}, keysFile: keys}, io.Discard); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(keys)
	if err != nil {
		t.Fatal(err)
	}
	if mode := st.Mode().Perm(); mode != 0o600 {
		t.Fatalf("the private keys are in a file of mode %o, want 600", mode)
	}
}
