package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestGoGenerateRecipe runs the README's go:generate recipe in a scratch
// module, as a user working from a local checkout does: a replace to this
// checkout, `GOPROXY=off go get -tool` (without GOPROXY=off, go get asks the
// module proxy for a module that is not published, replace or not), a
// generate directive running `go tool abigen`, go generate, go mod tidy,
// go build. tidy must keep the tool, and the result must build. Every step
// runs with GOPROXY=off: abigen's dependencies are in the module cache
// already (this test was built from them), and the scratch module starts
// with this checkout's go.sum, so the checksum database is not needed
// either.
func TestGoGenerateRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds abigen in a scratch module")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/consumer\n\ngo 1.26.0\n")
	sums, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sums))
	abi, err := os.ReadFile("../../testdata/abis/eosio.token.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	write("token/token.abi.json", string(abi))
	write("token/generate.go", "package token\n\n//go:generate go tool abigen --abi token.abi.json --pkg token --out .\n")
	write("main.go", "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/consumer/token\"\n\t\"github.com/antelopego/abigen/antelope\"\n)\n\n"+
		"func main() {\n\tc := token.Contract{Account: antelope.MustName(\"eosio.token\")}\n\tfmt.Println(c.Account)\n}\n")
	goRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOPROXY=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// The README's recipe for a local checkout.
	goRun("mod", "edit", "-replace", "github.com/antelopego/abigen="+filepath.ToSlash(root))
	goRun("get", "-tool", "github.com/antelopego/abigen/cmd/abigen")
	goRun("generate", "./...")
	goRun("mod", "tidy")
	goRun("build", "./...")
	goRun("mod", "tidy", "-diff")
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(mod), "tool github.com/antelopego/abigen/cmd/abigen") {
		t.Errorf("go mod tidy dropped the tool directive:\n%s", mod)
	}
	if out := goRun("run", "."); strings.TrimSpace(out) != "eosio.token" {
		t.Errorf("the program printed %q", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "token", "types.go")); err != nil {
		t.Error("go generate wrote no bindings")
	}
}

func TestVersionOf(t *testing.T) {
	for _, c := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: ""}}, true, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, true, "devel (0123456789ab, modified)"},
	} {
		if got := versionOf(c.bi, c.ok); got != c.want {
			t.Errorf("versionOf(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
}
