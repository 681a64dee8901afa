package antelope

import (
	"math"
	"strconv"
	"time"
)

// TimePoint is a time in microseconds since 1970-01-01T00:00:00 UTC.
// Binary: int64 little-endian. JSON: "2018-06-15T19:17:47.999", UTC, no zone,
// truncated to milliseconds as nodeos prints it; input takes up to 6
// fractional digits (microseconds).
type TimePoint int64

// TimePointSec is a time in seconds since 1970-01-01T00:00:00 UTC.
// Binary: uint32 little-endian. JSON: "2018-06-15T19:17:47" (nodeos prints no
// fraction; a fraction in input is ignored).
type TimePointSec uint32

// BlockTimestamp is a block slot: half-seconds since 2000-01-01T00:00:00 UTC.
// Binary: uint32 little-endian. JSON: "2000-01-01T00:00:00.500"; input is
// rounded down to the slot.
type BlockTimestamp uint32

// blockTimestampEpochMs is 2000-01-01T00:00:00Z in Unix milliseconds.
const blockTimestampEpochMs = 946684800000

// NewTimePoint converts a time.Time, truncating to the microsecond.
func NewTimePoint(t time.Time) TimePoint { return TimePoint(t.UnixMicro()) }

// Time converts to a time.Time in UTC.
func (t TimePoint) Time() time.Time { return time.UnixMicro(int64(t)).UTC() }

// Time converts to a time.Time in UTC.
func (t TimePointSec) Time() time.Time { return time.Unix(int64(t), 0).UTC() }

// Time converts to a time.Time in UTC.
func (t BlockTimestamp) Time() time.Time {
	return time.UnixMilli(int64(t)*500 + blockTimestampEpochMs).UTC()
}

// appendTime writes a time given in Unix seconds plus milliseconds as
// YYYY-MM-DDTHH:MM:SS[.mmm]. Years outside 0000–9999 get a sign or more
// digits, so that every value has a form that parses back.
func appendTime(b []byte, sec int64, ms int, withMs bool) []byte {
	days := floorDiv(sec, 86400)
	rem := sec - days*86400
	y, m, d := civilFromDays(days)
	if y >= 0 && y <= 9999 && ms >= 0 && ms <= 999 {
		// Every year a time_point or block_timestamp holds in practice: the
		// fixed layout filled two digits at a time, appended once.
		t := [23]byte{4: '-', 7: '-', 10: 'T', 13: ':', 16: ':', 19: '.'}
		putPair(t[0:], int(y/100))
		putPair(t[2:], int(y%100))
		putPair(t[5:], m)
		putPair(t[8:], d)
		putPair(t[11:], int(rem/3600))
		putPair(t[14:], int(rem/60%60))
		putPair(t[17:], int(rem%60))
		if !withMs {
			return append(b, t[:19]...)
		}
		t[20] = byte('0' + ms/100)
		putPair(t[21:], ms%100)
		return append(b, t[:]...)
	}
	if y < 0 {
		b = append(b, '-')
		y = -y
	}
	b = appendPadded(b, y, 4)
	b = append(b, '-')
	b = appendPadded(b, int64(m), 2)
	b = append(b, '-')
	b = appendPadded(b, int64(d), 2)
	b = append(b, 'T')
	b = appendPadded(b, rem/3600, 2)
	b = append(b, ':')
	b = appendPadded(b, rem/60%60, 2)
	b = append(b, ':')
	b = appendPadded(b, rem%60, 2)
	if withMs {
		b = append(b, '.')
		b = appendPadded(b, int64(ms), 3)
	}
	return b
}

// putPair writes the two digits of v (0–99) at t[0:2].
func putPair(t []byte, v int) {
	t[0], t[1] = digitPairs[2*v], digitPairs[2*v+1]
}

func appendPadded(b []byte, v int64, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for range width - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// civilFromDays converts days since 1970-01-01 to a proleptic Gregorian
// date (Howard Hinnant's algorithm), for any int64 day count in range.
func civilFromDays(z int64) (y int64, m, d int) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// daysFromCivil is the inverse of civilFromDays.
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mm := int64(m)
	if m > 2 {
		mm -= 3
	} else {
		mm += 9
	}
	doy := (153*mm+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// parseTime parses YYYY-MM-DD[THH[:MM[:SS[.ffffff]]]][Z] (the partial forms
// are nodeos's) and returns Unix seconds and microseconds. The year may have
// a sign or more than 4 digits, matching what appendTime writes.
func parseTime(typ string, s []byte) (sec int64, micros int64, err error) {
	bad := func(msg string) (int64, int64, error) { return 0, 0, valueErr(typ, string(s), msg) }
	i := 0
	num := func(min, max int) (int64, bool) {
		start := i
		var v int64
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && i-start < max {
			v = v*10 + int64(s[i]-'0')
			i++
		}
		return v, i-start >= min
	}
	expect := func(c byte) bool {
		if i < len(s) && s[i] == c {
			i++
			return true
		}
		return false
	}
	neg := expect('-')
	if !neg {
		expect('+')
	}
	year, ok := num(4, 12)
	if !ok || !expect('-') {
		return bad("expected YYYY-MM-DDTHH:MM:SS")
	}
	if neg {
		year = -year
	}
	month, ok1 := num(2, 2)
	ok2 := expect('-')
	day, ok3 := num(2, 2)
	if !ok1 || !ok2 || !ok3 || month < 1 || month > 12 || day < 1 || day > int64(daysIn(year, int(month))) {
		return bad("invalid date")
	}
	var hh, mi, ss int64
	if expect('T') {
		if hh, ok = num(2, 2); !ok || hh > 23 {
			return bad("invalid hour")
		}
		if expect(':') {
			if mi, ok = num(2, 2); !ok || mi > 59 {
				return bad("invalid minute")
			}
			if expect(':') {
				if ss, ok = num(2, 2); !ok || ss > 59 {
					return bad("invalid second")
				}
				if expect('.') {
					start := i
					f, ok := num(1, 6)
					if !ok {
						return bad("invalid fraction")
					}
					for n := i - start; n < 6; n++ {
						f *= 10
					}
					micros = f
				}
			}
		}
	}
	expect('Z')
	if i != len(s) {
		return bad("unexpected text after the time (at most 6 fractional digits; no time zone but Z)")
	}
	days := daysFromCivil(year, int(month), int(day))
	if days > math.MaxInt64/86400-1 || days < math.MinInt64/86400+1 {
		return bad("out of range")
	}
	return days*86400 + hh*3600 + mi*60 + ss, micros, nil
}

func daysIn(y int64, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// ParseTimePoint parses a time; see TimePoint.
func ParseTimePoint(s string) (TimePoint, error) { return parseTimePoint([]byte(s)) }

func parseTimePoint(s []byte) (TimePoint, error) {
	sec, us, err := parseTime("time_point", s)
	if err != nil {
		return 0, err
	}
	const usPerSec = int64(1e6)
	outOfRange := func() error { return valueErr("time_point", string(s), "out of range") }
	if sec >= 0 {
		if sec > (math.MaxInt64-us)/usPerSec {
			return 0, outOfRange()
		}
		return TimePoint(sec*usPerSec + us), nil
	}
	// Negative: (sec+1)*1e6 cannot overflow where sec*1e6 might.
	if sec+1 < math.MinInt64/usPerSec {
		return 0, outOfRange()
	}
	base := (sec + 1) * usPerSec
	if base < math.MinInt64+(usPerSec-us) {
		return 0, outOfRange()
	}
	return TimePoint(base + us - usPerSec), nil
}

func (t TimePoint) appendText(b []byte) []byte {
	ms := floorDiv(int64(t), 1000)
	// Within 808 µs of MinInt64 the floored millisecond is not representable
	// in microseconds; print the nearest one that is, so the text parses.
	if ms < math.MinInt64/1000 {
		ms = math.MinInt64 / 1000
	}
	sec := floorDiv(ms, 1000)
	return appendTime(b, sec, int(ms-sec*1000), true)
}

// String returns the JSON text form without quotes.
func (t TimePoint) String() string { return string(t.appendText(nil)) }

// AppendBinary appends 8 bytes.
func (t TimePoint) AppendBinary(b []byte) ([]byte, error) { return AppendInt64(b, int64(t)), nil }

// MarshalBinary returns 8 bytes.
func (t TimePoint) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// DecodeBinary reads 8 bytes.
func (t *TimePoint) DecodeBinary(d *Decoder) error {
	v, err := d.Int64()
	*t = TimePoint(v)
	return err
}

// UnmarshalBinary decodes exactly 8 bytes.
func (t *TimePoint) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, t) }

// AppendJSON appends the quoted time, to the millisecond.
func (t TimePoint) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '"')
	b = t.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted time, to the millisecond.
func (t TimePoint) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil) }

// DecodeJSON reads a quoted time with up to 6 fractional digits.
func (t *TimePoint) DecodeJSON(r *JSONReader) error {
	s, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parseTimePoint(s)
	if err == nil {
		*t = v
	}
	return err
}

// UnmarshalJSON reads a quoted time.
func (t *TimePoint) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, t) }

// ParseTimePointSec parses a time; a fraction is ignored.
func ParseTimePointSec(s string) (TimePointSec, error) { return parseTimePointSec([]byte(s)) }

func parseTimePointSec(s []byte) (TimePointSec, error) {
	sec, _, err := parseTime("time_point_sec", s)
	if err != nil {
		return 0, err
	}
	if sec < 0 || sec > math.MaxUint32 {
		return 0, valueErr("time_point_sec", string(s), "outside 1970-01-01T00:00:00 to 2106-02-07T06:28:15")
	}
	return TimePointSec(sec), nil
}

func (t TimePointSec) appendText(b []byte) []byte { return appendTime(b, int64(t), 0, false) }

// String returns the JSON text form without quotes.
func (t TimePointSec) String() string { return string(t.appendText(nil)) }

// AppendBinary appends 4 bytes.
func (t TimePointSec) AppendBinary(b []byte) ([]byte, error) { return AppendUint32(b, uint32(t)), nil }

// MarshalBinary returns 4 bytes.
func (t TimePointSec) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// DecodeBinary reads 4 bytes.
func (t *TimePointSec) DecodeBinary(d *Decoder) error {
	v, err := d.Uint32()
	*t = TimePointSec(v)
	return err
}

// UnmarshalBinary decodes exactly 4 bytes.
func (t *TimePointSec) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, t) }

// AppendJSON appends the quoted time, without a fraction.
func (t TimePointSec) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '"')
	b = t.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted time, without a fraction.
func (t TimePointSec) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil) }

// DecodeJSON reads a quoted time.
func (t *TimePointSec) DecodeJSON(r *JSONReader) error {
	s, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parseTimePointSec(s)
	if err == nil {
		*t = v
	}
	return err
}

// UnmarshalJSON reads a quoted time.
func (t *TimePointSec) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, t) }

// ParseBlockTimestamp parses a time and rounds it down to its slot.
func ParseBlockTimestamp(s string) (BlockTimestamp, error) { return parseBlockTimestamp([]byte(s)) }

func parseBlockTimestamp(s []byte) (BlockTimestamp, error) {
	sec, us, err := parseTime("block_timestamp_type", s)
	if err != nil {
		return 0, err
	}
	const maxSec = (blockTimestampEpochMs + math.MaxUint32*500) / 1000
	if sec < blockTimestampEpochMs/1000 || sec > maxSec {
		return 0, valueErr("block_timestamp_type", string(s), "outside the range of block slots (from 2000-01-01)")
	}
	slot := (sec*1000 + us/1000 - blockTimestampEpochMs) / 500
	if slot > math.MaxUint32 {
		return 0, valueErr("block_timestamp_type", string(s), "outside the range of block slots")
	}
	return BlockTimestamp(slot), nil
}

func (t BlockTimestamp) appendText(b []byte) []byte {
	ms := int64(t)*500 + blockTimestampEpochMs
	return appendTime(b, ms/1000, int(ms%1000), true)
}

// String returns the JSON text form without quotes.
func (t BlockTimestamp) String() string { return string(t.appendText(nil)) }

// AppendBinary appends 4 bytes.
func (t BlockTimestamp) AppendBinary(b []byte) ([]byte, error) {
	return AppendUint32(b, uint32(t)), nil
}

// MarshalBinary returns 4 bytes.
func (t BlockTimestamp) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// DecodeBinary reads 4 bytes.
func (t *BlockTimestamp) DecodeBinary(d *Decoder) error {
	v, err := d.Uint32()
	*t = BlockTimestamp(v)
	return err
}

// UnmarshalBinary decodes exactly 4 bytes.
func (t *BlockTimestamp) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, t) }

// AppendJSON appends the quoted time of the slot, to the millisecond.
func (t BlockTimestamp) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '"')
	b = t.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted time of the slot.
func (t BlockTimestamp) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil) }

// DecodeJSON reads a quoted time.
func (t *BlockTimestamp) DecodeJSON(r *JSONReader) error {
	s, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parseBlockTimestamp(s)
	if err == nil {
		*t = v
	}
	return err
}

// UnmarshalJSON reads a quoted time.
func (t *BlockTimestamp) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, t) }
