package antelope

import (
	"math"
	"testing"
)

// nodeos reads "nan" with boost::lexical_cast (fc::to_double): the quiet NaN
// 0x7ff8000000000000, and "-nan" with the sign bit set; printing a NaN with
// the sign bit set gives "-nan" (C++ iostreams). The JSON reader and writer
// keep those bits, so a NaN read from nodeos's JSON encodes as nodeos does.
func TestJSONNaNBitsAsNodeos(t *testing.T) {
	for _, c := range []struct {
		in      string
		bits64  uint64
		bits32  uint32
		printed string
	}{
		{`"nan"`, 0x7ff8000000000000, 0x7fc00000, `"nan"`},
		{`"NaN"`, 0x7ff8000000000000, 0x7fc00000, `"nan"`},
		{`"-nan"`, 0xfff8000000000000, 0xffc00000, `"-nan"`},
	} {
		v, err := NewJSONReader([]byte(c.in)).Float64()
		if err != nil || math.Float64bits(v) != c.bits64 {
			t.Errorf("float64 %s: %#x, %v; want %#x", c.in, math.Float64bits(v), err, c.bits64)
		}
		f, err := NewJSONReader([]byte(c.in)).Float32()
		if err != nil || math.Float32bits(f) != c.bits32 {
			t.Errorf("float32 %s: %#x, %v; want %#x", c.in, math.Float32bits(f), err, c.bits32)
		}
		if got := string(AppendFloat64JSON(nil, v)); got != c.printed {
			t.Errorf("float64 %#x prints %s, want %s", math.Float64bits(v), got, c.printed)
		}
		if got := string(AppendFloat32JSON(nil, f)); got != c.printed {
			t.Errorf("float32 %#x prints %s, want %s", math.Float32bits(f), got, c.printed)
		}
	}
}
