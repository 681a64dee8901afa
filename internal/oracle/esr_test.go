package oracle

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// The signing-request vectors (esr.js): requests made, encoded and resolved
// by @wharfkit/signing-request, which antelope's ESR must decode, rebuild
// and resolve byte for byte; and, with ORACLE_GO_ESR set, the requests the
// Go side makes for esr.js check to read back.

type esrVector struct {
	Chain         *string           `json:"chain"`
	ChainIDs      []string          `json:"chain_ids"`
	Kind          string            `json:"kind"`
	Actions       []esrAction       `json:"actions"`
	Transaction   *esrTransaction   `json:"transaction"`
	Identity      *esrIdentity      `json:"identity"`
	Broadcast     *bool             `json:"broadcast"`
	Callback      json.RawMessage   `json:"callback"`
	Info          []esrInfo         `json:"info"`
	RequestKey    string            `json:"request_key"`
	RequestSigner string            `json:"request_signer"`
	ABIs          map[string]string `json:"abis"` // account → golden case
	Version       uint8             `json:"version"`
	URI           string            `json:"uri"`
	Compressed    string            `json:"compressed"`
	Resolved      esrResolved       `json:"resolved"`
}

type esrAction struct {
	Account       string `json:"account"`
	Name          string `json:"name"`
	Authorization []struct {
		Actor      string `json:"actor"`
		Permission string `json:"permission"`
	} `json:"authorization"`
	Data string `json:"data"`
}

type esrTransaction struct {
	Expiration         *string     `json:"expiration"`
	RefBlockNum        uint16      `json:"ref_block_num"`
	RefBlockPrefix     uint32      `json:"ref_block_prefix"`
	MaxNetUsageWords   uint32      `json:"max_net_usage_words"`
	MaxCPUUsageMS      uint8       `json:"max_cpu_usage_ms"`
	DelaySec           uint32      `json:"delay_sec"`
	Actions            []esrAction `json:"actions"`
	ContextFreeActions []esrAction `json:"context_free_actions"`
	Extensions         []struct {
		Type uint16 `json:"type"`
		Data string `json:"data"`
	} `json:"transaction_extensions"`
}

type esrIdentity struct {
	Scope      string `json:"scope"`
	Permission *struct {
		Actor      string `json:"actor"`
		Permission string `json:"permission"`
	} `json:"permission"`
}

type esrInfo struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type esrResolved struct {
	Signer struct {
		Actor      string `json:"actor"`
		Permission string `json:"permission"`
	} `json:"signer"`
	Context struct {
		Expiration     string `json:"expiration"`
		RefBlockNum    uint16 `json:"ref_block_num"`
		RefBlockPrefix uint32 `json:"ref_block_prefix"`
		BlockID        string `json:"block_id"`
		Timestamp      string `json:"timestamp"`
		ExpireSeconds  uint32 `json:"expire_seconds"`
		ChainID        string `json:"chain_id"`
	} `json:"context"`
	Error         string   `json:"error"`
	Packed        string   `json:"packed"`
	ID            string   `json:"id"`
	SigningDigest string   `json:"signing_digest"`
	ChainID       string   `json:"chain_id"`
	Signatures    []string `json:"signatures"`
	BlockNum      uint32   `json:"block_num"`
	Callback      *struct {
		URL        string            `json:"url"`
		Background bool              `json:"background"`
		Payload    map[string]string `json:"payload"`
	} `json:"callback"`
	IdentityProof string `json:"identity_proof"`
}

// must returns v, and panics (failing the test) on an error that the
// vectors rule out.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func (a esrAction) action(t *testing.T) antelope.Action {
	t.Helper()
	out := antelope.Action{
		Account: must(antelope.ParseName(a.Account)), Name: must(antelope.ParseName(a.Name)),
		Data: must(hex.DecodeString(a.Data)), Authorization: []antelope.PermissionLevel{},
	}
	for _, p := range a.Authorization {
		out.Authorization = append(out.Authorization, antelope.PermissionLevel{
			Actor: must(antelope.ParseName(p.Actor)), Permission: must(antelope.ParseName(p.Permission))})
	}
	return out
}

// build makes the vector's request with antelope's constructors, from the
// arguments wharfkit was given.
func (v *esrVector) build(t *testing.T) *antelope.ESR {
	chain := antelope.ESRAnyChain
	if v.Chain != nil {
		chain = antelope.ESRChainFor(checksum(t, *v.Chain))
	}
	var r *antelope.ESR
	switch v.Kind {
	case "action", "action[]":
		actions := []antelope.Action{}
		for _, a := range v.Actions {
			actions = append(actions, a.action(t))
		}
		r = antelope.NewESR(chain, actions...)
	case "transaction":
		tv := v.Transaction
		tx := antelope.Transaction{Actions: []antelope.Action{}, ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
		if tv.Expiration != nil {
			tx.Expiration = must(antelope.ParseTimePointSec(*tv.Expiration))
		}
		tx.RefBlockNum, tx.RefBlockPrefix = tv.RefBlockNum, tv.RefBlockPrefix
		tx.MaxNetUsageWords, tx.MaxCPUUsageMS, tx.DelaySec = tv.MaxNetUsageWords, tv.MaxCPUUsageMS, tv.DelaySec
		for _, a := range tv.Actions {
			tx.Actions = append(tx.Actions, a.action(t))
		}
		for _, a := range tv.ContextFreeActions {
			tx.ContextFreeActions = append(tx.ContextFreeActions, a.action(t))
		}
		for _, e := range tv.Extensions {
			tx.Extensions = append(tx.Extensions, antelope.Extension{Type: e.Type, Data: must(hex.DecodeString(e.Data))})
		}
		r = antelope.NewESRTransaction(chain, tx)
	case "identity":
		var scope antelope.Name
		if v.Identity.Scope != "" {
			scope = must(antelope.ParseName(v.Identity.Scope))
		}
		var perm *antelope.PermissionLevel
		if p := v.Identity.Permission; p != nil {
			perm = &antelope.PermissionLevel{Actor: must(antelope.ParseName(p.Actor)), Permission: must(antelope.ParseName(p.Permission))}
		}
		r = antelope.NewESRIdentity(chain, scope, perm)
	default:
		t.Fatalf("kind %q", v.Kind)
	}
	if v.Broadcast != nil {
		if *v.Broadcast {
			r.Flags |= antelope.ESRBroadcast
		} else {
			r.Flags &^= antelope.ESRBroadcast
		}
	}
	if len(v.Callback) > 0 && string(v.Callback) != "null" {
		var url string
		if json.Unmarshal(v.Callback, &url) == nil {
			r.Callback = url
		} else {
			var cb struct {
				URL        string `json:"url"`
				Background bool   `json:"background"`
			}
			must(0, json.Unmarshal(v.Callback, &cb))
			r.SetCallback(cb.URL, cb.Background)
		}
	}
	for _, p := range v.Info {
		r.SetInfo(p.Key, must(hex.DecodeString(p.Value)))
	}
	if v.ChainIDs != nil {
		var ids []antelope.Checksum256
		for _, s := range v.ChainIDs {
			ids = append(ids, checksum(t, s))
		}
		r.SetChainIDs(ids...)
	}
	if v.RequestKey != "" {
		key := must(antelope.ParsePrivateKey(v.RequestKey))
		if err := r.SignWith(key, must(antelope.ParseName(v.RequestSigner))); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// uriPayload returns the payload of an esr: URI.
func uriPayload(t *testing.T, uri string) []byte {
	t.Helper()
	s := strings.TrimPrefix(strings.TrimPrefix(uri, "esr:"), "//")
	return must(base64.RawURLEncoding.DecodeString(s))
}

// goldenContracts loads the golden ABIs a vector's accounts stand for.
type goldenContracts map[string]*model.Model

func (g goldenContracts) contracts(t *testing.T, abis map[string]string) model.Contracts {
	t.Helper()
	out := model.Contracts{}
	for account, name := range abis {
		m, ok := g[name]
		if !ok {
			src := must(model.Load(must(os.ReadFile(filepath.Join("..", "..", "golden", name, "abi.json")))))
			m = must(model.Resolve(src.ABI))
			g[name] = m
		}
		out[must(antelope.ParseName(account))] = m
	}
	return out
}

func (v *esrVector) context(t *testing.T) antelope.ESRContext {
	c := v.Resolved.Context
	var ctx antelope.ESRContext
	if c.BlockID != "" {
		ts := must(time.Parse("2006-01-02T15:04:05.000", c.Timestamp))
		ctx = antelope.ESRContextAt(checksum(t, c.BlockID), ts, c.ExpireSeconds)
	} else {
		ctx = antelope.ESRContext{Expiration: must(antelope.ParseTimePointSec(c.Expiration)), RefBlockNum: c.RefBlockNum, RefBlockPrefix: c.RefBlockPrefix}
	}
	if c.ChainID != "" {
		ctx.ChainID = checksum(t, c.ChainID)
	}
	return ctx
}

func esrVectors(name string) string {
	return filepath.Join("..", "..", "testdata", "oracle", "esr", name)
}

func TestESRVectors(t *testing.T) {
	var file struct {
		Requests []esrVector `json:"requests"`
	}
	readGzipJSON(t, esrVectors("esr.json.gz"), &file)
	if len(file.Requests) < 500 {
		t.Fatalf("%d signing request vectors, want at least 500", len(file.Requests))
	}
	golden := goldenContracts{}
	var resolved, refused, callbacks, proofs, compressed int
	for i, v := range file.Requests {
		want := uriPayload(t, v.URI)
		// theirs → ours: decode and re-encode, both forms.
		r, err := antelope.ParseESR(v.URI)
		if err != nil {
			t.Fatalf("%d: %s: %v", i, v.URI, err)
		}
		if got, err := r.Payload(false); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d: re-encoded\n got %x, %v\nwant %x", i, got, err, want)
			continue
		}
		if r.Version != v.Version || r.Kind.String() != v.Kind {
			t.Errorf("%d: version %d kind %s, want %d %s", i, r.Version, r.Kind, v.Version, v.Kind)
		}
		zp := uriPayload(t, v.Compressed)
		if zp[0]&0x80 != 0 {
			compressed++
		}
		if inflated, err := antelope.InflateESRPayload(zp); err != nil || !bytes.Equal(inflated, want) {
			t.Errorf("%d: wharfkit's compressed form inflates to %x, %v", i, inflated, err)
		}
		if rz, err := antelope.ParseESR(v.Compressed); err != nil {
			t.Errorf("%d: %v", i, err)
		} else if got, _ := rz.Payload(false); !bytes.Equal(got, want) {
			t.Errorf("%d: compressed form decodes to another request", i)
		}
		ours, err := r.Encode(true)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := antelope.ParseESR(ours); err != nil {
			t.Errorf("%d: our compressed form: %v", i, err)
		} else if got, _ := back.Payload(false); !bytes.Equal(got, want) {
			t.Errorf("%d: our compressed form decodes to another request", i)
		}
		// The constructors, given wharfkit's arguments, make the same bytes.
		if got, err := v.build(t).Payload(false); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d: built from the arguments\n got %x, %v\nwant %x", i, got, err, want)
		}
		if v.RequestKey != "" {
			key := must(antelope.ParsePrivateKey(v.RequestKey))
			pub := must(key.PublicKey())
			if rec, err := r.RecoverRequestSigner(); err != nil || !rec.Equal(pub) {
				t.Errorf("%d: request signer recovers as %v, %v", i, rec, err)
			}
		}
		// Resolution.
		rv := v.Resolved
		signer := antelope.PermissionLevel{Actor: must(antelope.ParseName(rv.Signer.Actor)), Permission: must(antelope.ParseName(rv.Signer.Permission))}
		res, err := r.Resolve(signer, v.context(t), golden.contracts(t, v.ABIs))
		if rv.Error != "" {
			if err == nil {
				t.Errorf("%d: resolved, but wharfkit refuses: %s", i, rv.Error)
			}
			refused++
			continue
		}
		if err != nil {
			t.Errorf("%d: resolve: %v", i, err)
			continue
		}
		resolved++
		if packed := must(res.Transaction.MarshalBinary()); hex.EncodeToString(packed) != rv.Packed {
			t.Errorf("%d: resolved to\n got %x\nwant %s", i, packed, rv.Packed)
			continue
		}
		if id := must(res.Transaction.ID()); id.String() != rv.ID {
			t.Errorf("%d: id %s, want %s", i, id, rv.ID)
		}
		if d := must(res.SigningDigest()); d.String() != rv.SigningDigest || res.ChainID.String() != rv.ChainID {
			t.Errorf("%d: digest %s on %s, want %s on %s", i, d, res.ChainID, rv.SigningDigest, rv.ChainID)
		}
		var sigs []antelope.Signature
		for _, s := range rv.Signatures {
			sigs = append(sigs, must(antelope.ParseSignature(s)))
		}
		cb, err := res.Callback(sigs, rv.BlockNum)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if (cb == nil) != (rv.Callback == nil) {
			t.Errorf("%d: callback %v, want %v", i, cb, rv.Callback)
		} else if cb != nil {
			callbacks++
			checkCallback(t, i, cb, rv.Callback.URL, rv.Callback.Background, rv.Callback.Payload)
		}
		if rv.IdentityProof != "" {
			proofs++
			p, err := res.IdentityProof(sigs[0])
			if err != nil || p.String() != rv.IdentityProof {
				t.Errorf("%d: identity proof %v, %v; want %s", i, p, err, rv.IdentityProof)
				continue
			}
			back, err := antelope.ParseIdentityProof(rv.IdentityProof)
			if err != nil || back.String() != p.String() {
				t.Errorf("%d: %s reads back as %v, %v", i, rv.IdentityProof, back, err)
			}
			// Where the request let the signer choose the permission, the
			// proof's transaction is the one resolved and signed.
			if r.Identity.Permission == nil {
				pub := must(sigs[0].RecoverPublicKey(must(res.SigningDigest())))
				if key, err := p.Check(time.Unix(int64(p.Expiration)-1, 0)); err != nil || !key.Equal(pub) {
					t.Errorf("%d: the proof recovers %v, %v; want %v", i, key, err, pub)
				}
			}
			if _, err := p.Check(time.Unix(int64(p.Expiration), 0)); err == nil {
				t.Errorf("%d: an expired proof passes Check", i)
			}
		}
	}
	t.Logf("esr oracle: %d requests from @wharfkit/signing-request (%d compressed by it) decoded, rebuilt and re-encoded byte for byte; %d resolved to the same transactions (%d callbacks, %d identity proofs), %d refused as wharfkit refuses them",
		len(file.Requests), compressed, resolved, callbacks, proofs, refused)
	if out := os.Getenv("ORACLE_GO_ESR"); out != "" {
		writeGoESR(t, out, file.Requests, golden)
	}
}

// checkCallback compares a callback with wharfkit's. The request URI in
// it is compressed by each library's deflate: compared by what it decodes to.
func checkCallback(t *testing.T, i int, cb *antelope.ESRCallback, url string, background bool, payload map[string]string) {
	t.Helper()
	if cb.URL != url || cb.Background != background {
		t.Errorf("%d: callback %q background %v, want %q %v", i, cb.URL, cb.Background, url, background)
	}
	fields := cb.Payload.Fields()
	if len(fields) != len(payload) {
		t.Errorf("%d: callback payload %v, want %v", i, fields, payload)
	}
	for k, want := range payload {
		got := fields[k]
		if k == "req" {
			a, errA := antelope.ParseESR(got)
			b, errB := antelope.ParseESR(want)
			if errA != nil || errB != nil {
				t.Errorf("%d: req %v %v", i, errA, errB)
				continue
			}
			got = hex.EncodeToString(must(a.Payload(false)))
			want = hex.EncodeToString(must(b.Payload(false)))
		}
		if got != want {
			t.Errorf("%d: callback %s = %q, want %q", i, k, got, want)
		}
	}
	// The payload reads back from its JSON.
	js := must(json.Marshal(&cb.Payload))
	var back antelope.ESRCallbackPayload
	if err := json.Unmarshal(js, &back); err != nil {
		t.Errorf("%d: %s: %v", i, js, err)
	} else if again := must(json.Marshal(&back)); !bytes.Equal(again, js) {
		t.Errorf("%d: payload JSON round trip\n%s\n%s", i, js, again)
	}
}
