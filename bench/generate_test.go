package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/gen"
	"github.com/antelopego/abigen/model"
)

// BenchmarkGenerate runs the pipeline in process, load → resolve → generate
// (formatting included), on every real ABI in testdata/abis.
func BenchmarkGenerate(b *testing.B) {
	paths, _ := filepath.Glob("../testdata/abis/*.abi.json")
	if len(paths) == 0 {
		b.Fatal("no ABIs in ../testdata/abis")
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".abi.json")
		src, err := model.Load(data)
		if err != nil {
			continue // eosio.token.bad is refused, as it should be
		}
		if _, err := model.Resolve(src.ABI); err != nil {
			continue
		}
		b.Run(name+"/generated", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				src, err := model.Load(data)
				if err != nil {
					b.Fatal(err)
				}
				m, err := model.Resolve(src.ABI)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := gen.Generate(m, src, gen.Options{Package: "bench", Source: p}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAbigenProcess runs the abigen binary, start to finish, on
// eosio.system, as go generate does: process start, read, generate, write;
// then, as its pair in the same iteration, gofmt -d over the files it wrote
// (which finds nothing to change: the yardstick of parsing and printing
// that much Go once).
func BenchmarkAbigenProcess(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "abigen")
	build := exec.Command("go", "build", "-o", bin, "./cmd/abigen")
	build.Dir = ".." // the main module, with its own go.sum
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	abi, err := filepath.Abs("../testdata/abis/eosio.system.abi.json")
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	gofmt, err := exec.LookPath("gofmt")
	if err != nil {
		b.Skip("no gofmt on PATH")
	}
	// Each iteration times abigen and then gofmt on what it wrote, so the
	// two see the same load: timed apart (all of one, then all of the
	// other), a busy machine made the ratio swing from 1.1× to 4×.
	b.Run("eosio.system/paired", func(b *testing.B) {
		var process, format time.Duration
		for b.Loop() {
			start := time.Now()
			cmd := exec.Command(bin, "--abi", abi, "--pkg", "eosiosystem", "--out", out, "--quiet")
			if msg, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, msg)
			}
			generated := time.Now()
			cmd = exec.Command(gofmt, "-d", out)
			if msg, err := cmd.CombinedOutput(); err != nil || len(msg) > 0 {
				b.Fatalf("gofmt -d: %v\n%s", err, msg)
			}
			process += generated.Sub(start)
			format += time.Since(generated)
		}
		n := float64(b.N)
		b.ReportMetric(float64(process.Nanoseconds())/n, "process-ns/op")
		b.ReportMetric(float64(format.Nanoseconds())/n, "gofmt-ns/op")
		b.ReportMetric(float64(process)/float64(format), "abigen/gofmt")
	})
}
