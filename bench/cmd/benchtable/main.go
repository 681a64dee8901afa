// Command benchtable reads `go test -bench` output for the bench package
// (several -count runs) and prints a table of medians and ratios:
// generated / hand-written, eos-go / generated, encoding/json / generated,
// for K1 signing and recovery abigen / decred and eos-go / abigen, and for
// table pages eos-go / abigen and encoding/json / abigen; then each of issue
// #34's goals beside its measured figure (goals.go).
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// sample is one benchmark's measurements over the runs.
type sample struct {
	ns, bytes, allocs []float64
	// metrics holds what a benchmark reported itself (b.ReportMetric),
	// by unit.
	metrics map[string][]float64
}

var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$`)

func parse(r io.Reader) (map[string]*sample, []string, error) {
	got := map[string]*sample{}
	var order []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		s := got[m[1]]
		if s == nil {
			s = &sample{}
			got[m[1]] = s
			order = append(order, m[1])
		}
		ns, _ := strconv.ParseFloat(m[2], 64)
		s.ns = append(s.ns, ns)
		fields := strings.Fields(m[3])
		for i := 0; i+1 < len(fields); i++ {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			switch fields[i+1] {
			case "B/op":
				s.bytes = append(s.bytes, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			default:
				if s.metrics == nil {
					s.metrics = map[string][]float64{}
				}
				s.metrics[fields[i+1]] = append(s.metrics[fields[i+1]], v)
			}
		}
	}
	return got, order, sc.Err()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func dur(ns float64) string {
	switch {
	case ns == 0:
		return "–"
	case ns < 1000:
		return fmt.Sprintf("%.1f ns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.1f ms", ns/1e6)
	}
}

func ratio(a, b float64) string {
	if a == 0 || b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func main() {
	got, order, err := parse(os.Stdin)
	if err != nil || len(got) == 0 {
		fmt.Fprintln(os.Stderr, "benchtable: no benchmark lines on stdin", err)
		os.Exit(1)
	}
	med := func(name string) (ns, allocs float64, ok bool) {
		s := got[name]
		if s == nil {
			return 0, 0, false
		}
		return median(s.ns), median(s.allocs), true
	}
	runs := len(got[order[0]].ns)
	fmt.Printf("medians of %d runs\n\n", runs)

	fmt.Println("| codec | generated | allocs | hand-written | eos-go | generated / hand | eos-go / generated |")
	fmt.Println("|---|---|---|---|---|---|---|")
	seen := map[string]bool{}
	for _, name := range order {
		op, rest, _ := strings.Cut(name, "/")
		if op != "Encode" && op != "Decode" {
			continue
		}
		c, _, _ := strings.Cut(rest, "/")
		key := op + "/" + c
		if seen[key] {
			continue
		}
		seen[key] = true
		g, ga, _ := med(key + "/generated")
		h, _, _ := med(key + "/hand")
		e, _, _ := med(key + "/eosgo")
		fmt.Printf("| %s %s | %s | %.0f | %s | %s | %s | %s |\n", c, strings.ToLower(op), dur(g), ga, dur(h), dur(e), ratio(g, h), ratio(e, g))
	}

	fmt.Println()
	fmt.Println("| decode via UnmarshalBinary | time | allocs | eos-go / it |")
	fmt.Println("|---|---|---|---|")
	for _, name := range order {
		op, rest, _ := strings.Cut(name, "/")
		if op != "Decode" || !strings.HasSuffix(rest, "/unmarshal") {
			continue
		}
		c := strings.TrimSuffix(rest, "/unmarshal")
		u, ua, _ := med(name)
		e, _, _ := med(op + "/" + c + "/eosgo")
		fmt.Printf("| %s | %s | %.0f | %s |\n", c, dur(u), ua, ratio(e, u))
	}

	fmt.Println()
	fmt.Println("| JSON page, 1,000 rows | generated | allocs | encoding/json | allocs | encoding/json / generated |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, name := range order {
		op, rest, _ := strings.Cut(name, "/")
		if !strings.HasPrefix(op, "JSON") || !strings.HasSuffix(rest, "/generated") {
			continue
		}
		c := strings.TrimSuffix(rest, "/generated")
		g, ga, _ := med(name)
		j, ja, _ := med(op + "/" + c + "/encodingjson")
		fmt.Printf("| %s %s | %s | %.0f | %s | %.0f | %s |\n", c, strings.ToLower(strings.TrimPrefix(op, "JSON")), dur(g), ga, dur(j), ja, ratio(j, g))
	}

	fmt.Println()
	fmt.Println("| K1 | abigen | decred (floor) | eos-go | abigen / decred | eos-go / abigen |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, name := range order {
		op, rest, _ := strings.Cut(name, "/")
		if (op != "Sign" && op != "Recover") || !strings.HasSuffix(rest, "/abigen") {
			continue
		}
		c := strings.TrimSuffix(rest, "/abigen")
		a, _, _ := med(name)
		d, _, _ := med(op + "/" + c + "/decred")
		e, _, _ := med(op + "/" + c + "/eosgo")
		fmt.Printf("| %s %s | %s | %s | %s | %s | %s |\n", c, strings.ToLower(op), dur(a), dur(d), dur(e), ratio(a, d), ratio(e, a))
	}

	fmt.Println()
	fmt.Println("| get_table_rows page | abigen | allocs | eos-go | encoding/json | eos-go / abigen | encoding/json / abigen |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, name := range order {
		op, rest, _ := strings.Cut(name, "/")
		if op != "TablePage" || !strings.HasSuffix(rest, "/abigen") {
			continue
		}
		c := strings.TrimSuffix(rest, "/abigen")
		a, aa, _ := med(name)
		e, _, _ := med(op + "/" + c + "/eosgo")
		j, _, _ := med(op + "/" + c + "/encodingjson")
		fmt.Printf("| %s | %s | %.0f | %s | %s | %s | %s |\n", c, dur(a), aa, dur(e), dur(j), ratio(e, a), ratio(j, a))
	}
	for _, name := range order {
		if op, rest, _ := strings.Cut(name, "/"); op == "TransactCost" {
			a, _, _ := med(name)
			fmt.Printf("\nTransact without the network (%s: build, sign, pack): %s\n", strings.TrimSuffix(rest, "/abigen"), dur(a))
		}
	}

	if f, fa, ok := med("SHiP/Dense/followToken"); ok {
		o, oa, _ := med("SHiP/Dense/otherContract")
		so, soa, _ := med("SHiP/Sparse/otherContract")
		g, _, _ := med("SHiP/Dense/generatedDecode")
		fmt.Println()
		fmt.Println("| SHiP, one core | per block | blocks/s | allocs |")
		fmt.Println("|---|---|---|---|")
		fmt.Printf("| dense block, eosio.token transfers and balances typed | %s | %.0f | %.0f |\n", dur(f), 1e9/f, fa)
		fmt.Printf("| dense block, another contract (filter only) | %s | %.0f | %.0f |\n", dur(o), 1e9/o, oa)
		fmt.Printf("| sparse block, another contract | %s | %.0f | %.0f |\n", dur(so), 1e9/so, soa)
		ty, _, _ := med("SHiP/Transfers/typed")
		wo, _, _ := med("SHiP/Transfers/walkOnly")
		fmt.Printf("\nA typed transfer beyond the walk: %s; the generated Transfer decoder alone: %s (a block of 20 transfers)\n", dur((ty-wo)/20), dur(g/20))
	}

	fmt.Println()
	fmt.Println("| generation | time |")
	fmt.Println("|---|---|")
	for _, name := range order {
		op, rest, _ := strings.Cut(name, "/")
		switch op {
		case "Generate":
			g, _, _ := med(name)
			fmt.Printf("| %s, in process | %s |\n", strings.TrimSuffix(rest, "/generated"), dur(g))
		case "AbigenProcess":
			c, impl, _ := strings.Cut(rest, "/")
			if impl != "paired" {
				continue
			}
			// Each run timed both in the same iterations; the ratio is
			// the median of the runs' ratios.
			m := got[name].metrics
			fmt.Printf("| abigen process, %s | %s |\n", c, dur(median(m["process-ns/op"])))
			fmt.Printf("| gofmt -d of its output, %s | %s (abigen / gofmt, paired: %.2f×) |\n", c, dur(median(m["gofmt-ns/op"])), median(m["abigen/gofmt"]))
		}
	}

	// chaintest: transfers per second, Go handler and wasm; compile times.
	if _, ok := got["ChaintestTransfer/tx/go"]; ok {
		fmt.Println()
		fmt.Println("| chaintest transfer | Go handler | wasm | wasm / Go | Go actions/s | wasm actions/s |")
		fmt.Println("|---|---|---|---|---|---|")
		for _, shape := range []string{"tx", "batch"} {
			g, _, _ := med("ChaintestTransfer/" + shape + "/go")
			w, _, _ := med("ChaintestTransfer/" + shape + "/wasm")
			per := 1.0
			what := "one per transaction"
			if shape == "batch" {
				per, what = 50, "50 per transaction"
			}
			fmt.Printf("| %s | %s | %s | %s | %.0f | %.0f |\n", what, dur(g), dur(w), ratio(w, g), per*1e9/g, per*1e9/w)
		}
	}
	if _, ok := got["WasmCompile/eosio.token/compiler"]; ok {
		fmt.Println()
		fmt.Println("| compile | wazero compiler | interpreter |")
		fmt.Println("|---|---|---|")
		for _, name := range order {
			op, rest, _ := strings.Cut(name, "/")
			if op != "WasmCompile" || !strings.HasSuffix(rest, "/compiler") {
				continue
			}
			c := strings.TrimSuffix(rest, "/compiler")
			cc, _, _ := med(name)
			in, _, _ := med(op + "/" + c + "/interpreter")
			fmt.Printf("| %s | %s | %s |\n", c, dur(cc), dur(in))
		}
	}
	printGoals(got)
}
