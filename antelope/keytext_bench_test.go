package antelope

import (
	"testing"

	//lint:ignore SA1019 reference
	xripemd "golang.org/x/crypto/ripemd160"
)

func benchKeyData() []byte {
	d := make([]byte, 33)
	for i := range d {
		d[i] = byte(i*37 + 11)
	}
	d[0] = 2
	return d
}

func BenchmarkKeyTextEncode(b *testing.B) {
	d := benchKeyData()
	var buf []byte
	for b.Loop() {
		buf = appendKeyString(buf[:0], "", d, "")
	}
}

func BenchmarkKeyTextRIPEMD(b *testing.B) {
	d := benchKeyData()
	for b.Loop() {
		ripemdChecksum(d, "")
	}
}

func BenchmarkKeyTextBase58Encode(b *testing.B) {
	d := append(benchKeyData(), 1, 2, 3, 4)
	var buf []byte
	for b.Loop() {
		buf = base58Encode(buf[:0], d)
	}
}

func BenchmarkKeyTextBase58Decode(b *testing.B) {
	d := append(benchKeyData(), 1, 2, 3, 4)
	s := base58Encode(nil, d)
	var buf [96]byte
	for b.Loop() {
		base58Decode(buf[:0], s)
	}
}

func BenchmarkKeyTextRIPEMDx(b *testing.B) {
	d := benchKeyData()
	for b.Loop() {
		h := xripemd.New()
		h.Write(d)
		h.Sum(nil)
	}
}
