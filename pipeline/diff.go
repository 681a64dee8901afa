package pipeline

import (
	"fmt"
	"strings"
)

// unifiedDiff returns a unified diff (3 lines of context) from a to b, or ""
// when they are equal. It uses Myers' algorithm on lines.
func unifiedDiff(nameA, nameB, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := myers(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	const ctx = 3
	// Group edits into hunks with context.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		aStart, bStart, aLen, bLen := ops[start].ai, ops[start].bi, 0, 0
		var body strings.Builder
		for _, op := range ops[start:end] {
			switch op.kind {
			case ' ':
				aLen++
				bLen++
				body.WriteString(" " + x[op.ai])
			case '-':
				aLen++
				body.WriteString("-" + x[op.ai])
			case '+':
				bLen++
				body.WriteString("+" + y[op.bi])
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n%s", aStart+1, aLen, bStart+1, bLen, body.String())
		i = end
	}
	return out.String()
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if !strings.HasSuffix(l, "\n") {
			lines[i] = l + "\n\\ No newline at end of file\n"
		}
	}
	return lines
}

type diffOp struct {
	kind   byte // ' ', '-', '+'
	ai, bi int  // line indexes in a and b (the one that applies)
}

// myers computes a shortest edit script between x and y.
func myers(x, y []string) []diffOp {
	n, m := len(x), len(y)
	maxD := n + m
	// The trace grows with the edit distance; past this many edits the
	// files are simply different, and one replace-everything hunk says so.
	const maxEdits = 2000
	limit := min(maxD, maxEdits)
	v := make([]int, 2*maxD+2)
	var trace [][]int
	off := maxD + 1
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				i = v[off+k+1]
			} else {
				i = v[off+k-1] + 1
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i++
				j++
			}
			v[off+k] = i
			if i >= n && j >= m {
				return backtrack(trace, x, y, off, d)
			}
		}
	}
	var ops []diffOp
	for i := range x {
		ops = append(ops, diffOp{'-', i, 0})
	}
	for j := range y {
		ops = append(ops, diffOp{'+', n, j})
	}
	return ops
}

func backtrack(trace [][]int, x, y []string, off, d int) []diffOp {
	var ops []diffOp
	i, j := len(x), len(y)
	for ; d > 0; d-- {
		v := trace[d]
		k := i - j
		var pk int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		pi := v[off+pk]
		pj := pi - pk
		for i > pi && j > pj {
			i--
			j--
			ops = append(ops, diffOp{' ', i, j})
		}
		if i == pi {
			j--
			ops = append(ops, diffOp{'+', i, j})
		} else {
			i--
			ops = append(ops, diffOp{'-', i, j})
		}
	}
	for i > 0 && j > 0 {
		i--
		j--
		ops = append(ops, diffOp{' ', i, j})
	}
	for l, r := 0, len(ops)-1; l < r; l, r = l+1, r-1 {
		ops[l], ops[r] = ops[r], ops[l]
	}
	return ops
}
