package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// chaintest: token transfers through the in-process chain, the real
// eosio.token.wasm against the Go TokenContract, and the compile time of
// each real contract.

func wasmFile(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "chain", "chaintest", "testdata", "wasm", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkChaintestTransfer sends transfers through Client.Transact on a
// chain WithoutNetwork: "tx" one transfer per transaction (building,
// signing, the chain's signature recovery, checks, the trace and a block
// included), "batch" 50 transfers per transaction (mostly the contract).
// It reports transactions and transfers per CPU-second (the process's
// user+system time over the loop, the GC's included: issue #34's goals
// are per CPU-second, robust on a shared machine), and actions per
// wall-second.
func BenchmarkChaintestTransfer(b *testing.B) {
	alice, bob, token := antelope.MustName("alice"), antelope.MustName("bob"), antelope.MustName("eosio.token")
	for _, impl := range []string{"go", "wasm"} {
		for _, per := range []int{1, 50} {
			shape := "tx"
			if per > 1 {
				shape = "batch"
			}
			b.Run(fmt.Sprintf("%s/%s", shape, impl), func(b *testing.B) {
				c := chaintest.New(chaintest.WithoutNetwork())
				defer c.Close()
				keys := antelope.PrivateKeys{c.NewAccount(alice)}
				c.NewAccount(bob)
				tokenKey := c.NewAccount(token)
				var err error
				if impl == "wasm" {
					err = c.DeployWASM(token, wasmFile(b, "eosio.token.wasm"), wasmFile(b, "eosio.token.abi"))
				} else {
					err = c.DeployToken(token)
				}
				if err != nil {
					b.Fatal(err)
				}
				tok := eosiotoken.Contract{Account: token}
				cl := c.Client()
				ctx := b.Context()
				create, _ := tok.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000000000.0000 TKN")}, antelope.Active(token))
				if _, err := cl.Transact(ctx, tokenKey, create); err != nil {
					b.Fatal(err)
				}
				issue, _ := tok.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("1000000000.0000 TKN")}, antelope.Active(alice))
				if _, err := cl.Transact(ctx, keys, issue); err != nil {
					b.Fatal(err)
				}
				acts := make([]antelope.Action, per)
				n, txs := 0, 0
				cpu0 := cpuTime()
				start := time.Now()
				for b.Loop() {
					for i := range acts {
						n++
						acts[i], _ = tok.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("0.0001 TKN"),
							Memo: fmt.Sprint(n)}, antelope.Active(alice))
					}
					if _, err := cl.Transact(ctx, keys, acts...); err != nil {
						b.Fatal(err)
					}
					txs++
				}
				wall, cpu := time.Since(start), cpuTime()-cpu0
				b.ReportMetric(float64(n)/wall.Seconds(), "actions/s")
				b.ReportMetric(float64(txs)/cpu.Seconds(), "tx/cpu-s")
				b.ReportMetric(float64(n)/cpu.Seconds(), "transfers/cpu-s")
			})
		}
	}
}

// cpuTime is the CPU time this process has used so far, user and system,
// every goroutine's (the GC's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWasmCompile is the time to compile each real contract (wazero's
// compiler; the interpreter's "compile" is a translation): a chain of its
// own compilation cache, so every iteration compiles anew.
func BenchmarkWasmCompile(b *testing.B) {
	for _, name := range []string{"eosio.token", "eosio.msig", "eosio.bios", "eosio.system", "test_api_db", "test_api_multi_index"} {
		code := wasmFile(b, name+".wasm")
		for _, engine := range []string{"compiler", "interpreter"} {
			b.Run(name+"/"+engine, func(b *testing.B) {
				opts := []chaintest.Option{chaintest.WithoutNetwork(), chaintest.WithOwnCompilationCache()}
				if engine == "interpreter" {
					opts = append(opts, chaintest.WithInterpreter())
				}
				for b.Loop() {
					c := chaintest.New(opts...)
					if err := c.DeployWASM(antelope.MustName("contract"), code, nil); err != nil {
						b.Fatal(err)
					}
					c.Close()
				}
			})
		}
	}
}
