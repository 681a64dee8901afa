package antelope

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// boostInfNaN is what nodeos makes of a float written as a JSON string that
// is not a decimal number: fc::to_double is boost::lexical_cast<double>,
// whose parse_inf_nan takes an optional sign, then "nan" (optionally followed
// by "(…)") or exactly "inf" or "infinity", letters in any case. Anything
// else of that shape is refused.
func boostInfNaN(s string) (uint64, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg || strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	sign := uint64(0)
	if neg {
		sign = 1 << 63
	}
	if len(s) < 3 {
		return 0, false
	}
	if strings.EqualFold(s[:3], "nan") {
		rest := s[3:]
		if rest != "" && (len(rest) < 2 || rest[0] != '(' || rest[len(rest)-1] != ')') {
			return 0, false
		}
		return 0x7ff8000000000000 | sign, true
	}
	if strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") {
		return 0x7ff0000000000000 | sign, true
	}
	return 0, false
}

// Every spelling of NaN and infinity nodeos reads — any sign, any case,
// "nan(…)" — reads to the bits nodeos makes, and nothing else of that shape
// reads at all: a model-based sweep against boost::lexical_cast's rule.
// Go's own "+Inf" and "-Inf" (strconv.FormatFloat) are among them.
func TestJSONInfNaNSpellingsAsNodeos(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 1))
	words := []string{"nan", "inf", "infinity", "infin", "in", "na", "nanx", "infinityy", "Infinit"}
	suffixes := []string{"", "", "", "()", "(1)", "(abc)", "(", ")", "x", " "}
	signs := []string{"", "", "+", "-", "--", "+-"}
	cases := []string{"+Inf", "-Inf", "NaN", "-NaN", "INF", "Infinity", "-infinity", "+nan", "nan(0x1)", "inf()", "nan()"}
	for range 5000 {
		w := []byte(pick(r, words))
		for i := range w {
			if r.IntN(2) == 0 {
				w[i] -= 'a' - 'A'
			}
		}
		s := pick(r, signs) + string(w)
		if !strings.HasPrefix(strings.ToLower(string(w)), "inf") {
			s += pick(r, suffixes)
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		want, ok := boostInfNaN(s)
		in := []byte(`"` + s + `"`)
		v, err := NewJSONReader(in).Float64()
		if (err == nil) != ok || ok && math.Float64bits(v) != want {
			t.Fatalf("float64 %s: %#x, %v; nodeos reads it: %v, as %#x", in, math.Float64bits(v), err, ok, want)
		}
		f, err := NewJSONReader(in).Float32()
		if (err == nil) != ok || ok && math.Float32bits(f) != math.Float32bits(float32(math.Float64frombits(want))) {
			t.Fatalf("float32 %s: %#x, %v; nodeos reads it: %v", in, math.Float32bits(f), err, ok)
		}
	}
}

func pick(r *rand.Rand, from []string) string { return from[r.IntN(len(from))] }
