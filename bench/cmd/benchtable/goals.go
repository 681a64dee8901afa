package main

import (
	"fmt"
	"strings"
)

// A goal is a figure issue #34 sets, read from the benchmarks' own
// metrics: CPU time, not wall time, since a shared machine's wall time
// counts others' turns on the core.
type goal struct {
	what    string
	measure func(med func(name, unit string) float64) (value float64, ok bool)
	format  string  // how the value prints
	atLeast float64 // the goal; 0 reports the figure without one
}

var goals = []goal{
	{
		what: "chaintest Client.Transact, real wasm, one transfer per transaction (tx per CPU-second)",
		measure: func(med func(string, string) float64) (float64, bool) {
			v := med("ChaintestTransfer/tx/wasm", "tx/cpu-s")
			return v, v > 0
		},
		format: "%.0f", atLeast: 2500,
	},
	{
		what: "chaintest Client.Transact, real wasm, 50 transfers per transaction (transfers per CPU-second)",
		measure: func(med func(string, string) float64) (float64, bool) {
			v := med("ChaintestTransfer/batch/wasm", "transfers/cpu-s")
			return v, v > 0
		},
		format: "%.0f", atLeast: 8000,
	},
}

// coldJSONGoals adds, for each cold JSON row type and direction, the ratio
// to encoding/json (goal 2×) and to the fastest of go-json and sonic
// (reported: typed and validated "should not be slower than untyped").
func coldJSONGoals() []goal {
	var out []goal
	for _, op := range []string{"Unmarshal", "Marshal"} {
		for _, rows := range []string{"Producers", "TokenAccounts", "AtomicAssets"} {
			base := "JSONCold" + op + "/" + rows + "/"
			out = append(out, goal{
				what: fmt.Sprintf("JSON %s, cold %s: encoding/json ÷ generated (CPU)", strings.ToLower(op), rows),
				measure: func(med func(string, string) float64) (float64, bool) {
					g, j := med(base+"generated", "cpu-ns/op"), med(base+"encodingjson", "cpu-ns/op")
					return j / g, g > 0 && j > 0
				},
				format: "%.2f×", atLeast: 2,
			}, goal{
				what: fmt.Sprintf("JSON %s, cold %s: fastest of go-json, sonic ÷ generated (CPU)", strings.ToLower(op), rows),
				measure: func(med func(string, string) float64) (float64, bool) {
					g := med(base+"generated", "cpu-ns/op")
					fastest := 0.0
					for _, lib := range []string{"gojson", "sonic"} {
						if v := med(base+lib, "cpu-ns/op"); v > 0 && (fastest == 0 || v < fastest) {
							fastest = v
						}
					}
					return fastest / g, g > 0 && fastest > 0
				},
				format: "%.2f×",
			})
			if rows == "Producers" {
				out = append(out, coldKeyFloor(op, base))
			}
		}
	}
	return out
}

// pageRows is how many rows a cold JSON page holds (bench's jsonRows).
const pageRows = 1000

// coldKeyFloor reports what reading or printing one cold public key costs
// (BenchmarkJSONColdKey: base58, the RIPEMD-160 checksum, the caches) over
// what the fastest untyped library spends on a whole producers row, which
// holds that key: at 1× or more, validating the key alone costs more than
// the untyped row, so no JSON framing can make the typed row as fast.
func coldKeyFloor(op, base string) goal {
	key := map[string]string{"Unmarshal": "JSONColdKey/Read", "Marshal": "JSONColdKey/Print"}[op]
	return goal{
		what: fmt.Sprintf("JSON %s, cold Producers: one cold key's base58 and checksum alone ÷ the fastest untyped library's whole row (CPU)", strings.ToLower(op)),
		measure: func(med func(string, string) float64) (float64, bool) {
			k := med(key, "cpu-ns/op")
			fastest := 0.0
			for _, lib := range []string{"gojson", "sonic"} {
				if v := med(base+lib, "cpu-ns/op"); v > 0 && (fastest == 0 || v < fastest) {
					fastest = v
				}
			}
			return k / (fastest / pageRows), k > 0 && fastest > 0
		},
		format: "%.2f×",
	}
}

// printGoals prints each goal's figure beside it, for the benchmarks that
// ran.
func printGoals(got map[string]*sample) {
	med := func(name, unit string) float64 {
		s := got[name]
		if s == nil {
			return 0
		}
		return median(s.metrics[unit])
	}
	var rows []string
	for _, g := range append(goals, coldJSONGoals()...) {
		v, ok := g.measure(med)
		if !ok {
			continue
		}
		goalText, met := "reported", ""
		if g.atLeast > 0 {
			goalText = "≥ " + fmt.Sprintf(g.format, g.atLeast)
			met = "yes"
			if v < g.atLeast {
				met = "**no**"
			}
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", g.what, fmt.Sprintf(g.format, v), goalText, met))
	}
	if len(rows) == 0 {
		return
	}
	fmt.Println()
	fmt.Println("| goal (issue #34), CPU time | measured | goal | met |")
	fmt.Println("|---|---|---|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
}
