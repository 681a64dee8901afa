package antelope

import (
	"encoding/binary"
	"math/bits"
)

// RIPEMD-160, the hash of key and signature checksums, written out step by
// step so that the compiler keeps the state in registers and rotates by
// constants, and kept on the caller's stack: golang.org/x/crypto's digest
// is reached through hash.Hash (two allocations per checksum) and computes
// its rotation amounts and word indices from tables at run time. Printing a
// public key was a third RIPEMD-160. TestRIPEMD160 checks it against
// golang.org/x/crypto on every length across several blocks.

// rmdDigest is a RIPEMD-160 digest in progress. The zero value is not
// ready: start from newRMD.
type rmdDigest struct {
	h    [5]uint32
	buf  [64]byte
	nbuf int
	n    uint64 // bytes written
}

func newRMD() rmdDigest {
	return rmdDigest{h: [5]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}}
}

func (d *rmdDigest) write(p []byte) {
	d.n += uint64(len(p))
	if d.nbuf > 0 {
		k := copy(d.buf[d.nbuf:], p)
		d.nbuf += k
		p = p[k:]
		if d.nbuf < 64 {
			return
		}
		rmdBlock(&d.h, d.buf[:])
		d.nbuf = 0
	}
	for len(p) >= 64 {
		rmdBlock(&d.h, p[:64])
		p = p[64:]
	}
	d.nbuf = copy(d.buf[:], p)
}

func (d *rmdDigest) writeString(s string) {
	var b [8]byte
	for len(s) > 0 {
		k := copy(b[:], s)
		d.write(b[:k])
		s = s[k:]
	}
}

func (d *rmdDigest) sum() (out [20]byte) {
	n := d.n
	var pad [72]byte
	pad[0] = 0x80
	k := 56 - d.nbuf
	if k <= 0 {
		k += 64
	}
	binary.LittleEndian.PutUint64(pad[k:], n<<3)
	d.write(pad[:k+8])
	for i, v := range d.h {
		binary.LittleEndian.PutUint32(out[4*i:], v)
	}
	return out
}

// The five boolean functions; each step computes a += f(b, c, d) + x,
// rotates it by s and adds e, and rotates c by 10.
func rmd1(a, b, c, d, e, x uint32, s int) (uint32, uint32) {
	return bits.RotateLeft32(a+(b^c^d)+x, s) + e, bits.RotateLeft32(c, 10)
}
func rmd2(a, b, c, d, e, x uint32, s int) (uint32, uint32) {
	return bits.RotateLeft32(a+(b&c|^b&d)+x, s) + e, bits.RotateLeft32(c, 10)
}
func rmd3(a, b, c, d, e, x uint32, s int) (uint32, uint32) {
	return bits.RotateLeft32(a+((b|^c)^d)+x, s) + e, bits.RotateLeft32(c, 10)
}
func rmd4(a, b, c, d, e, x uint32, s int) (uint32, uint32) {
	return bits.RotateLeft32(a+(b&d|c&^d)+x, s) + e, bits.RotateLeft32(c, 10)
}
func rmd5(a, b, c, d, e, x uint32, s int) (uint32, uint32) {
	return bits.RotateLeft32(a+(b^(c|^d))+x, s) + e, bits.RotateLeft32(c, 10)
}

// rmdBlock compresses one 64-byte block into h: the left and right lines of
// 80 steps each (the word order, rotations and constants of the RIPEMD-160
// specification), the variables' roles rotating by one each step.
func rmdBlock(h *[5]uint32, p []byte) {
	var x [16]uint32
	for i := range x {
		x[i] = binary.LittleEndian.Uint32(p[4*i:])
	}
	a, b, c, d, e := h[0], h[1], h[2], h[3], h[4]
	aa, bb, cc, dd, ee := a, b, c, d, e
	// The two lines are independent: interleaved, their steps overlap in the
	// processor. Left: f1…f5, constants 0, 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc,
	// 0xa953fd4e; right: f5…f1, constants 0x50a28be6, 0x5c4dd124, 0x6d703ef3,
	// 0x7a6d76e9, 0.
	a, c = rmd1(a, b, c, d, e, x[0], 11)
	aa, cc = rmd5(aa, bb, cc, dd, ee, x[5]+0x50a28be6, 8)
	e, b = rmd1(e, a, b, c, d, x[1], 14)
	ee, bb = rmd5(ee, aa, bb, cc, dd, x[14]+0x50a28be6, 9)
	d, a = rmd1(d, e, a, b, c, x[2], 15)
	dd, aa = rmd5(dd, ee, aa, bb, cc, x[7]+0x50a28be6, 9)
	c, e = rmd1(c, d, e, a, b, x[3], 12)
	cc, ee = rmd5(cc, dd, ee, aa, bb, x[0]+0x50a28be6, 11)
	b, d = rmd1(b, c, d, e, a, x[4], 5)
	bb, dd = rmd5(bb, cc, dd, ee, aa, x[9]+0x50a28be6, 13)
	a, c = rmd1(a, b, c, d, e, x[5], 8)
	aa, cc = rmd5(aa, bb, cc, dd, ee, x[2]+0x50a28be6, 15)
	e, b = rmd1(e, a, b, c, d, x[6], 7)
	ee, bb = rmd5(ee, aa, bb, cc, dd, x[11]+0x50a28be6, 15)
	d, a = rmd1(d, e, a, b, c, x[7], 9)
	dd, aa = rmd5(dd, ee, aa, bb, cc, x[4]+0x50a28be6, 5)
	c, e = rmd1(c, d, e, a, b, x[8], 11)
	cc, ee = rmd5(cc, dd, ee, aa, bb, x[13]+0x50a28be6, 7)
	b, d = rmd1(b, c, d, e, a, x[9], 13)
	bb, dd = rmd5(bb, cc, dd, ee, aa, x[6]+0x50a28be6, 7)
	a, c = rmd1(a, b, c, d, e, x[10], 14)
	aa, cc = rmd5(aa, bb, cc, dd, ee, x[15]+0x50a28be6, 8)
	e, b = rmd1(e, a, b, c, d, x[11], 15)
	ee, bb = rmd5(ee, aa, bb, cc, dd, x[8]+0x50a28be6, 11)
	d, a = rmd1(d, e, a, b, c, x[12], 6)
	dd, aa = rmd5(dd, ee, aa, bb, cc, x[1]+0x50a28be6, 14)
	c, e = rmd1(c, d, e, a, b, x[13], 7)
	cc, ee = rmd5(cc, dd, ee, aa, bb, x[10]+0x50a28be6, 14)
	b, d = rmd1(b, c, d, e, a, x[14], 9)
	bb, dd = rmd5(bb, cc, dd, ee, aa, x[3]+0x50a28be6, 12)
	a, c = rmd1(a, b, c, d, e, x[15], 8)
	aa, cc = rmd5(aa, bb, cc, dd, ee, x[12]+0x50a28be6, 6)
	e, b = rmd2(e, a, b, c, d, x[7]+0x5a827999, 7)
	ee, bb = rmd4(ee, aa, bb, cc, dd, x[6]+0x5c4dd124, 9)
	d, a = rmd2(d, e, a, b, c, x[4]+0x5a827999, 6)
	dd, aa = rmd4(dd, ee, aa, bb, cc, x[11]+0x5c4dd124, 13)
	c, e = rmd2(c, d, e, a, b, x[13]+0x5a827999, 8)
	cc, ee = rmd4(cc, dd, ee, aa, bb, x[3]+0x5c4dd124, 15)
	b, d = rmd2(b, c, d, e, a, x[1]+0x5a827999, 13)
	bb, dd = rmd4(bb, cc, dd, ee, aa, x[7]+0x5c4dd124, 7)
	a, c = rmd2(a, b, c, d, e, x[10]+0x5a827999, 11)
	aa, cc = rmd4(aa, bb, cc, dd, ee, x[0]+0x5c4dd124, 12)
	e, b = rmd2(e, a, b, c, d, x[6]+0x5a827999, 9)
	ee, bb = rmd4(ee, aa, bb, cc, dd, x[13]+0x5c4dd124, 8)
	d, a = rmd2(d, e, a, b, c, x[15]+0x5a827999, 7)
	dd, aa = rmd4(dd, ee, aa, bb, cc, x[5]+0x5c4dd124, 9)
	c, e = rmd2(c, d, e, a, b, x[3]+0x5a827999, 15)
	cc, ee = rmd4(cc, dd, ee, aa, bb, x[10]+0x5c4dd124, 11)
	b, d = rmd2(b, c, d, e, a, x[12]+0x5a827999, 7)
	bb, dd = rmd4(bb, cc, dd, ee, aa, x[14]+0x5c4dd124, 7)
	a, c = rmd2(a, b, c, d, e, x[0]+0x5a827999, 12)
	aa, cc = rmd4(aa, bb, cc, dd, ee, x[15]+0x5c4dd124, 7)
	e, b = rmd2(e, a, b, c, d, x[9]+0x5a827999, 15)
	ee, bb = rmd4(ee, aa, bb, cc, dd, x[8]+0x5c4dd124, 12)
	d, a = rmd2(d, e, a, b, c, x[5]+0x5a827999, 9)
	dd, aa = rmd4(dd, ee, aa, bb, cc, x[12]+0x5c4dd124, 7)
	c, e = rmd2(c, d, e, a, b, x[2]+0x5a827999, 11)
	cc, ee = rmd4(cc, dd, ee, aa, bb, x[4]+0x5c4dd124, 6)
	b, d = rmd2(b, c, d, e, a, x[14]+0x5a827999, 7)
	bb, dd = rmd4(bb, cc, dd, ee, aa, x[9]+0x5c4dd124, 15)
	a, c = rmd2(a, b, c, d, e, x[11]+0x5a827999, 13)
	aa, cc = rmd4(aa, bb, cc, dd, ee, x[1]+0x5c4dd124, 13)
	e, b = rmd2(e, a, b, c, d, x[8]+0x5a827999, 12)
	ee, bb = rmd4(ee, aa, bb, cc, dd, x[2]+0x5c4dd124, 11)
	d, a = rmd3(d, e, a, b, c, x[3]+0x6ed9eba1, 11)
	dd, aa = rmd3(dd, ee, aa, bb, cc, x[15]+0x6d703ef3, 9)
	c, e = rmd3(c, d, e, a, b, x[10]+0x6ed9eba1, 13)
	cc, ee = rmd3(cc, dd, ee, aa, bb, x[5]+0x6d703ef3, 7)
	b, d = rmd3(b, c, d, e, a, x[14]+0x6ed9eba1, 6)
	bb, dd = rmd3(bb, cc, dd, ee, aa, x[1]+0x6d703ef3, 15)
	a, c = rmd3(a, b, c, d, e, x[4]+0x6ed9eba1, 7)
	aa, cc = rmd3(aa, bb, cc, dd, ee, x[3]+0x6d703ef3, 11)
	e, b = rmd3(e, a, b, c, d, x[9]+0x6ed9eba1, 14)
	ee, bb = rmd3(ee, aa, bb, cc, dd, x[7]+0x6d703ef3, 8)
	d, a = rmd3(d, e, a, b, c, x[15]+0x6ed9eba1, 9)
	dd, aa = rmd3(dd, ee, aa, bb, cc, x[14]+0x6d703ef3, 6)
	c, e = rmd3(c, d, e, a, b, x[8]+0x6ed9eba1, 13)
	cc, ee = rmd3(cc, dd, ee, aa, bb, x[6]+0x6d703ef3, 6)
	b, d = rmd3(b, c, d, e, a, x[1]+0x6ed9eba1, 15)
	bb, dd = rmd3(bb, cc, dd, ee, aa, x[9]+0x6d703ef3, 14)
	a, c = rmd3(a, b, c, d, e, x[2]+0x6ed9eba1, 14)
	aa, cc = rmd3(aa, bb, cc, dd, ee, x[11]+0x6d703ef3, 12)
	e, b = rmd3(e, a, b, c, d, x[7]+0x6ed9eba1, 8)
	ee, bb = rmd3(ee, aa, bb, cc, dd, x[8]+0x6d703ef3, 13)
	d, a = rmd3(d, e, a, b, c, x[0]+0x6ed9eba1, 13)
	dd, aa = rmd3(dd, ee, aa, bb, cc, x[12]+0x6d703ef3, 5)
	c, e = rmd3(c, d, e, a, b, x[6]+0x6ed9eba1, 6)
	cc, ee = rmd3(cc, dd, ee, aa, bb, x[2]+0x6d703ef3, 14)
	b, d = rmd3(b, c, d, e, a, x[13]+0x6ed9eba1, 5)
	bb, dd = rmd3(bb, cc, dd, ee, aa, x[10]+0x6d703ef3, 13)
	a, c = rmd3(a, b, c, d, e, x[11]+0x6ed9eba1, 12)
	aa, cc = rmd3(aa, bb, cc, dd, ee, x[0]+0x6d703ef3, 13)
	e, b = rmd3(e, a, b, c, d, x[5]+0x6ed9eba1, 7)
	ee, bb = rmd3(ee, aa, bb, cc, dd, x[4]+0x6d703ef3, 7)
	d, a = rmd3(d, e, a, b, c, x[12]+0x6ed9eba1, 5)
	dd, aa = rmd3(dd, ee, aa, bb, cc, x[13]+0x6d703ef3, 5)
	c, e = rmd4(c, d, e, a, b, x[1]+0x8f1bbcdc, 11)
	cc, ee = rmd2(cc, dd, ee, aa, bb, x[8]+0x7a6d76e9, 15)
	b, d = rmd4(b, c, d, e, a, x[9]+0x8f1bbcdc, 12)
	bb, dd = rmd2(bb, cc, dd, ee, aa, x[6]+0x7a6d76e9, 5)
	a, c = rmd4(a, b, c, d, e, x[11]+0x8f1bbcdc, 14)
	aa, cc = rmd2(aa, bb, cc, dd, ee, x[4]+0x7a6d76e9, 8)
	e, b = rmd4(e, a, b, c, d, x[10]+0x8f1bbcdc, 15)
	ee, bb = rmd2(ee, aa, bb, cc, dd, x[1]+0x7a6d76e9, 11)
	d, a = rmd4(d, e, a, b, c, x[0]+0x8f1bbcdc, 14)
	dd, aa = rmd2(dd, ee, aa, bb, cc, x[3]+0x7a6d76e9, 14)
	c, e = rmd4(c, d, e, a, b, x[8]+0x8f1bbcdc, 15)
	cc, ee = rmd2(cc, dd, ee, aa, bb, x[11]+0x7a6d76e9, 14)
	b, d = rmd4(b, c, d, e, a, x[12]+0x8f1bbcdc, 9)
	bb, dd = rmd2(bb, cc, dd, ee, aa, x[15]+0x7a6d76e9, 6)
	a, c = rmd4(a, b, c, d, e, x[4]+0x8f1bbcdc, 8)
	aa, cc = rmd2(aa, bb, cc, dd, ee, x[0]+0x7a6d76e9, 14)
	e, b = rmd4(e, a, b, c, d, x[13]+0x8f1bbcdc, 9)
	ee, bb = rmd2(ee, aa, bb, cc, dd, x[5]+0x7a6d76e9, 6)
	d, a = rmd4(d, e, a, b, c, x[3]+0x8f1bbcdc, 14)
	dd, aa = rmd2(dd, ee, aa, bb, cc, x[12]+0x7a6d76e9, 9)
	c, e = rmd4(c, d, e, a, b, x[7]+0x8f1bbcdc, 5)
	cc, ee = rmd2(cc, dd, ee, aa, bb, x[2]+0x7a6d76e9, 12)
	b, d = rmd4(b, c, d, e, a, x[15]+0x8f1bbcdc, 6)
	bb, dd = rmd2(bb, cc, dd, ee, aa, x[13]+0x7a6d76e9, 9)
	a, c = rmd4(a, b, c, d, e, x[14]+0x8f1bbcdc, 8)
	aa, cc = rmd2(aa, bb, cc, dd, ee, x[9]+0x7a6d76e9, 12)
	e, b = rmd4(e, a, b, c, d, x[5]+0x8f1bbcdc, 6)
	ee, bb = rmd2(ee, aa, bb, cc, dd, x[7]+0x7a6d76e9, 5)
	d, a = rmd4(d, e, a, b, c, x[6]+0x8f1bbcdc, 5)
	dd, aa = rmd2(dd, ee, aa, bb, cc, x[10]+0x7a6d76e9, 15)
	c, e = rmd4(c, d, e, a, b, x[2]+0x8f1bbcdc, 12)
	cc, ee = rmd2(cc, dd, ee, aa, bb, x[14]+0x7a6d76e9, 8)
	b, d = rmd5(b, c, d, e, a, x[4]+0xa953fd4e, 9)
	bb, dd = rmd1(bb, cc, dd, ee, aa, x[12], 8)
	a, c = rmd5(a, b, c, d, e, x[0]+0xa953fd4e, 15)
	aa, cc = rmd1(aa, bb, cc, dd, ee, x[15], 5)
	e, b = rmd5(e, a, b, c, d, x[5]+0xa953fd4e, 5)
	ee, bb = rmd1(ee, aa, bb, cc, dd, x[10], 12)
	d, a = rmd5(d, e, a, b, c, x[9]+0xa953fd4e, 11)
	dd, aa = rmd1(dd, ee, aa, bb, cc, x[4], 9)
	c, e = rmd5(c, d, e, a, b, x[7]+0xa953fd4e, 6)
	cc, ee = rmd1(cc, dd, ee, aa, bb, x[1], 12)
	b, d = rmd5(b, c, d, e, a, x[12]+0xa953fd4e, 8)
	bb, dd = rmd1(bb, cc, dd, ee, aa, x[5], 5)
	a, c = rmd5(a, b, c, d, e, x[2]+0xa953fd4e, 13)
	aa, cc = rmd1(aa, bb, cc, dd, ee, x[8], 14)
	e, b = rmd5(e, a, b, c, d, x[10]+0xa953fd4e, 12)
	ee, bb = rmd1(ee, aa, bb, cc, dd, x[7], 6)
	d, a = rmd5(d, e, a, b, c, x[14]+0xa953fd4e, 5)
	dd, aa = rmd1(dd, ee, aa, bb, cc, x[6], 8)
	c, e = rmd5(c, d, e, a, b, x[1]+0xa953fd4e, 12)
	cc, ee = rmd1(cc, dd, ee, aa, bb, x[2], 13)
	b, d = rmd5(b, c, d, e, a, x[3]+0xa953fd4e, 13)
	bb, dd = rmd1(bb, cc, dd, ee, aa, x[13], 6)
	a, c = rmd5(a, b, c, d, e, x[8]+0xa953fd4e, 14)
	aa, cc = rmd1(aa, bb, cc, dd, ee, x[14], 5)
	e, b = rmd5(e, a, b, c, d, x[11]+0xa953fd4e, 11)
	ee, bb = rmd1(ee, aa, bb, cc, dd, x[0], 15)
	d, a = rmd5(d, e, a, b, c, x[6]+0xa953fd4e, 8)
	dd, aa = rmd1(dd, ee, aa, bb, cc, x[3], 13)
	c, e = rmd5(c, d, e, a, b, x[15]+0xa953fd4e, 5)
	cc, ee = rmd1(cc, dd, ee, aa, bb, x[9], 11)
	b, d = rmd5(b, c, d, e, a, x[13]+0xa953fd4e, 6)
	bb, dd = rmd1(bb, cc, dd, ee, aa, x[11], 11)
	t := h[1] + c + dd
	h[1] = h[2] + d + ee
	h[2] = h[3] + e + aa
	h[3] = h[4] + a + bb
	h[4] = h[0] + b + cc
	h[0] = t
}
