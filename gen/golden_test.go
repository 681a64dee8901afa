package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/antelopego/abigen/model"
)

var update = flag.Bool("update", false, "rewrite the golden files instead of comparing")

// goldenCase is golden/<case>/case.json: the input and the flags. The
// expected output is the package in the same directory, or error.txt when
// the input must be refused.
type goldenCase struct {
	Note    string            `json:"note,omitempty"` // why the case exists, when not obvious
	Input   string            `json:"input"`          // relative to the case directory
	Package string            `json:"package"`
	Account string            `json:"account,omitempty"`
	Renames map[string]string `json:"renames,omitempty"`
}

// generateBytes runs the whole pipeline the CLI runs: load, resolve,
// generate. account, when given, overrides the source's.
func generateBytes(data []byte, opts Options, account ...string) (*Result, error) {
	u, err := renderBytes(data, opts, account...)
	if err != nil {
		return nil, err
	}
	return u.format()
}

// renderBytes is generateBytes up to formatting.
func renderBytes(data []byte, opts Options, account ...string) (*unformatted, error) {
	src, err := model.Load(data)
	if err != nil {
		return nil, err
	}
	if len(account) > 0 && account[0] != "" {
		src.Account = account[0]
	}
	m, err := model.Resolve(src.ABI)
	if err != nil {
		return nil, err
	}
	return render(m, src, opts)
}

// generateCase runs a golden case through generateBytes.
func generateCase(dir string, c goldenCase) (map[string][]byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, c.Input))
	if err != nil {
		return nil, err
	}
	res, err := generateBytes(data, Options{Package: c.Package, Renames: c.Renames, Source: c.Input}, c.Account)
	if err != nil {
		return nil, err
	}
	return res.Files, nil
}

func TestGolden(t *testing.T) {
	cases, err := filepath.Glob("../golden/*/case.json")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases found: %v", err)
	}
	for _, path := range cases {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var c goldenCase
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatalf("case.json: %v", err)
			}
			files, genErr := generateCase(dir, c)
			if genErr == nil {
				// Determinism: a second run gives the same bytes.
				again, err := generateCase(dir, c)
				if err != nil {
					t.Fatalf("second run failed: %v", err)
				}
				for n := range files {
					if !bytes.Equal(files[n], again[n]) {
						t.Fatalf("%s differs between two runs", n)
					}
				}
			}
			if *update {
				writeGolden(t, dir, files, genErr)
				return
			}
			compareGolden(t, dir, files, genErr)
		})
	}
}

func existingOutputs(t *testing.T, dir string) []string {
	var out []string
	for _, pattern := range []string{"*.go", "abi.json", "error.txt"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, "_test.go") {
				out = append(out, filepath.Base(f))
			}
		}
	}
	sort.Strings(out)
	return out
}

func writeGolden(t *testing.T, dir string, files map[string][]byte, genErr error) {
	for _, f := range existingOutputs(t, dir) {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	if genErr != nil {
		files = map[string][]byte{"error.txt": []byte(genErr.Error() + "\n")}
	}
	for n, content := range files {
		if err := os.WriteFile(filepath.Join(dir, n), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func compareGolden(t *testing.T, dir string, files map[string][]byte, genErr error) {
	want, err := os.ReadFile(filepath.Join(dir, "error.txt"))
	expectErr := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	switch {
	case expectErr && genErr == nil:
		t.Fatalf("generated a package, but error.txt expects: %s", want)
	case expectErr:
		if got := genErr.Error() + "\n"; got != string(want) {
			t.Fatalf("error differs (run go test ./gen -update to accept):\n got: %s\nwant: %s", got, want)
		}
		return
	case genErr != nil:
		t.Fatalf("generation failed: %v", genErr)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if got, have := names, existingOutputs(t, dir); strings.Join(got, ",") != strings.Join(have, ",") {
		t.Fatalf("files differ: generated %v, golden has %v (run go test ./gen -update)", got, have)
	}
	for _, n := range names {
		old, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old, files[n]) {
			t.Errorf("%s is stale (run go test ./gen -update, then review the diff)", n)
		}
	}
}
