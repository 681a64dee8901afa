package antelope

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// The oracle vectors (internal/oracle, TestESRVectors) check encoding and
// resolution against @wharfkit/signing-request; these tests cover what they
// cannot: refusals, limits and the fixed examples of the protocol.

func TestESRKnownURIs(t *testing.T) {
	// From @wharfkit/signing-request's own tests.
	cases := []struct {
		uri      string
		kind     ESRKind
		version  uint8
		callback string
	}{
		{"esr://gmNgZGBY1mTC_MoglIGBIVzX5uxZRqAQGMBoExgDAjRi4fwAVz93ICUckpGYl12skJZfpFCSkaqQllmcwczAAAA", ESRKindAction, 2, ""},
		{"esr://AgABAwACJWh0dHBzOi8vY2guYW5jaG9yLmxpbmsvMTIzNC00NTY3LTg5MDAA", ESRKindIdentity, 2, "https://ch.anchor.link/1234-4567-8900"},
		{"esr://g2NgZP4PBQxMwhklJQXFVvr6qRWJuQU5qXrJ-bkMAA", ESRKindIdentity, 3, "https://example.com"},
		{"esr://AwAAAwAAAAAAAChdAAAVbXlhcHA6Ly9sb2dpbj17e2NpZH19AQljaGFpbl9pZHMFAgABAAo", ESRKindIdentity, 3, "myapp://login={{cid}}"},
	}
	for _, c := range cases {
		r, err := ParseESR(c.uri)
		if err != nil {
			t.Fatalf("%s: %v", c.uri, err)
		}
		if r.Kind != c.kind || r.Version != c.version || r.Callback != c.callback {
			t.Errorf("%s: kind %v version %d callback %q", c.uri, r.Kind, r.Version, r.Callback)
		}
		uri, err := r.URI()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseESR(uri)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := r.Payload(false)
		b, _ := back.Payload(false)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: round trip through %s changed it", c.uri, uri)
		}
	}
	r, _ := ParseESR(cases[3].uri)
	ids, err := r.ChainIDs()
	if err != nil || len(ids) != 2 || ids[0].Alias != 1 || ids[1].Alias != 10 {
		t.Errorf("chain_ids %v, %v", ids, err)
	}
	if _, err := r.ResolveChainID(ESRChainAliases[4]); err == nil {
		t.Error("resolved a multi-chain request for a chain it does not list")
	}
	if id, err := r.ResolveChainID(ESRChainAliases[10]); err != nil || id != ESRChainAliases[10] {
		t.Errorf("WAX: %v, %v", id, err)
	}
}

func TestESRRefusals(t *testing.T) {
	valid := NewESR(ESRChainFor(ESRChainAliases[1]), Action{Account: 1, Name: 2, Authorization: []PermissionLevel{ESRPlaceholderAuth}})
	payload, err := valid.Payload(false)
	if err != nil {
		t.Fatal(err)
	}
	id := NewESRIdentity(ESRAnyChain, 0, nil)
	id.Flags |= ESRBroadcast
	v2scope := NewESRIdentity(ESRChainFor(ESRChainAliases[1]), 5, nil)
	v2scope.Version = 2
	for name, r := range map[string]*ESR{"broadcast identity": id, "v2 scope": v2scope, "version 4": {Version: 4}, "no action": {Version: 2, Kind: ESRKindAction}} {
		if _, err := r.Payload(false); err == nil {
			t.Errorf("%s: encoded", name)
		}
	}
	bad := map[string]string{
		"empty":            "",
		"version 1":        "esr:" + base64.RawURLEncoding.EncodeToString(append([]byte{1}, payload[1:]...)),
		"trailing bytes":   "esr:" + base64.RawURLEncoding.EncodeToString(append(append([]byte{}, payload...), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
		"truncated":        "esr:" + base64.RawURLEncoding.EncodeToString(payload[:len(payload)-1]),
		"other scheme":     "http://example.com",
		"not base64":       "esr:***",
		"not deflate":      "esr:" + base64.RawURLEncoding.EncodeToString([]byte{0x82, 0xff, 0xff, 0xff}),
		"unknown chain id": "esr:" + base64.RawURLEncoding.EncodeToString([]byte{2, 2}),
	}
	for name, s := range bad {
		if r, err := ParseESR(s); err == nil {
			t.Errorf("%s: decoded %+v", name, r)
		}
	}
	// Resolving without TAPoS, or without an ABI for data placeholders.
	if _, err := valid.Resolve(PermissionLevel{Actor: 7, Permission: 8}, ESRContext{}, nil); err == nil || !strings.Contains(err.Error(), "TAPoS") {
		t.Errorf("resolved without TAPoS: %v", err)
	}
	if _, err := valid.Resolve(PermissionLevel{Actor: 7, Permission: 8}, ESRContext{Expiration: 1}, nil); err == nil || !strings.Contains(err.Error(), "ABI") {
		t.Errorf("resolved data without an ABI: %v", err)
	}
}

// A compressed request that inflates past MaxESRSize is refused, without
// inflating it all.
func TestESRDecompressionBomb(t *testing.T) {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 64 { // 64 MiB of zeros, about 64 KiB deflated
		_, _ = w.Write(zeros)
	}
	_ = w.Close()
	payload := append([]byte{2 | 0x80}, buf.Bytes()...)
	allocs := testing.AllocsPerRun(1, func() {
		if _, err := DecodeESRPayload(payload); err == nil || !strings.Contains(err.Error(), "inflates past") {
			t.Errorf("bomb: %v", err)
		}
	})
	if allocs > 200 {
		t.Errorf("%v allocations for a refused bomb", allocs)
	}
}

func TestESRResolveIdentityAndProof(t *testing.T) {
	scope, _ := ParseName("myapp")
	req := NewESRIdentity(ESRChainFor(ESRChainAliases[10]), scope, nil)
	req.SetCallback("https://myapp.example/login?sig={{sig}}&who={{sa}}", true)
	key, err := NewPrivateKey(KeyK1, [32]byte{1})
	if err != nil {
		t.Fatal(err)
	}
	alice, _ := ParseName("alice")
	active, _ := ParseName("active")
	signer := PermissionLevel{Actor: alice, Permission: active}
	exp := TimePointSec(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	res, err := req.Resolve(signer, ESRContext{Expiration: exp}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sr, err := res.SigningRequest(nil)
	if err != nil {
		t.Fatal(err)
	}
	sigs, err := key.Sign(t.Context(), sr)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := res.Callback(sigs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !cb.Background || !strings.HasPrefix(cb.URL, "https://myapp.example/login?sig=SIG_K1_") || !strings.HasSuffix(cb.URL, "&who=alice") {
		t.Errorf("callback %+v", cb)
	}
	// The backend's side: the payload it receives gives the proof.
	js, err := cb.Payload.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var got ESRCallbackPayload
	if err := got.UnmarshalJSON(js); err != nil {
		t.Fatal(err)
	}
	proof, err := IdentityProofFromCallback(&got)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := key.PublicKey()
	if k, err := proof.Check(time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil || !k.Equal(pub) {
		t.Errorf("proof recovers %v, %v; want %v", k, err, pub)
	}
	if _, err := proof.Check(time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("an expired proof passed")
	}
	back, err := ParseIdentityProof(proof.String())
	if err != nil || back.String() != proof.String() {
		t.Errorf("%s reads back as %v, %v", proof, back, err)
	}
	// What the wallet signed, for a verifier that checks rather than recovers.
	if d, err := proof.SigningDigest(); err != nil || d != sr.Digest || !pub.Verify(d, proof.Signature) {
		t.Errorf("proof's SigningDigest %x, %v; the wallet signed %x", d, err, sr.Digest)
	}
	resolved, err := ResolveCallback(&got, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := resolved.SigningDigest(); d != sr.Digest {
		t.Error("the callback resolves to another transaction")
	}
	got.TransactionID[0] ^= 1
	if _, err := ResolveCallback(&got, nil); err == nil {
		t.Error("a payload with another transaction id resolved")
	}
}

func TestESRContextAt(t *testing.T) {
	id, _ := ParseChecksum256("0000a0b1c2d3e4f5a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718")
	for ms, want := range map[int]uint32{0: 60, 499: 60, 500: 61, 999: 61} {
		c := ESRContextAt(id, time.Unix(1000, int64(ms)*1e6), 60)
		if uint32(c.Expiration) != 1000+want {
			t.Errorf("%d ms: expiration %d, want %d", ms, c.Expiration, 1000+want)
		}
		if c.RefBlockNum != 0xa0b1 || c.RefBlockPrefix != 0xd4c3b2a1 {
			t.Errorf("TAPoS %x %x", c.RefBlockNum, c.RefBlockPrefix)
		}
	}
}

// FuzzESR decodes arbitrary payloads: never a panic, never more than
// MaxESRSize inflated, and whatever decodes re-encodes to a payload that
// decodes to the same request.
func FuzzESR(f *testing.F) {
	for _, s := range []string{
		"gmNgZGBY1mTC_MoglIGBIVzX5uxZRqAQGMBoExgDAjRi4fwAVz93ICUckpGYl12skJZfpFCSkaqQllmcwczAAAA",
		"AgABAwACJWh0dHBzOi8vY2guYW5jaG9yLmxpbmsvMTIzNC00NTY3LTg5MDAA",
		"g2NgZP4PBQxMwhklJQXFVvr6qRWJuQU5qXrJ-bkMAA",
		"AwAAAwAAAAAAAChdAAAVbXlhcHA6Ly9sb2dpbj17e2NpZH19AQljaGFpbl9pZHMFAgABAAo",
	} {
		b, _ := base64.RawURLEncoding.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		r, err := DecodeESRPayload(payload)
		if err != nil {
			return
		}
		plain, err := r.Payload(false)
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		if inflated, err := InflateESRPayload(payload); err != nil || (payload[0]&0x80 == 0 && !bytes.Equal(inflated, plain)) {
			t.Fatalf("re-encoded as %x, from %x (%v)", plain, inflated, err)
		}
		again, err := DecodeESRPayload(plain)
		if err != nil {
			t.Fatal(err)
		}
		if p2, _ := again.Payload(false); !bytes.Equal(p2, plain) {
			t.Fatalf("unstable: %x then %x", plain, p2)
		}
		_, _ = r.ChainIDs()
		_, _ = r.Resolve(PermissionLevel{Actor: 3, Permission: 4}, ESRContext{Expiration: 1, ChainID: ESRChainAliases[1]}, nil)
	})
}
