package oracle

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// ours → theirs: random requests made by antelope, in combinations
// wharfkit's create never makes (chains by id though they have an alias,
// version 3 without a multi-chain or scope reason, any flags, placeholder
// identities…), for esr.js check to decode, re-encode and resolve.

const goESRRequests = 600

type goESR struct {
	URI           string            `json:"uri"`
	Compressed    string            `json:"compressed"`
	Version       uint8             `json:"version"`
	Kind          string            `json:"kind"`
	Flags         uint8             `json:"flags"`
	Callback      string            `json:"callback"`
	ChainID       string            `json:"chain_id,omitempty"`
	RequestSigner string            `json:"request_signer,omitempty"`
	ABIs          map[string]string `json:"abis"`
	Resolved      *goESRResolved    `json:"resolved,omitempty"`
}

type goESRResolved struct {
	Signer  map[string]string `json:"signer"`
	Context map[string]any    `json:"context"`
	Packed  string            `json:"packed"`
	Digest  string            `json:"signing_digest"`
}

// pooledAction is an action of a vector, with the golden case its account
// stands for.
type pooledAction struct {
	action antelope.Action
	abi    string
}

func randomGoName(r *rand.Rand) antelope.Name {
	const chars = "abcdefghijklmnopqrstuvwxyz12345."
	n := 1 + r.IntN(12)
	b := make([]byte, n)
	for i := range b {
		if i == n-1 {
			b[i] = chars[r.IntN(len(chars)-1)]
		} else {
			b[i] = chars[r.IntN(len(chars))]
		}
	}
	name, _ := antelope.ParseName(string(b))
	return name
}

func writeGoESR(t *testing.T, out string, vectors []esrVector, golden goldenContracts) {
	var pool []pooledAction
	for _, v := range vectors {
		for _, a := range v.Actions {
			pool = append(pool, pooledAction{a.action(t), v.ABIs[a.Account]})
		}
	}
	r := rand.New(rand.NewPCG(20261121, 7))
	known := []antelope.Checksum256{antelope.ESRChainAliases[1], antelope.ESRChainAliases[10], antelope.ESRChainAliases[3]}
	var list []goESR
	for i := range goESRRequests {
		var chain antelope.ESRChain
		switch r.IntN(5) {
		case 0:
			chain = antelope.ESRAnyChain
		case 1:
			chain = antelope.ESRChain{ByID: true, ID: known[r.IntN(len(known))]} // by id though it has an alias
		case 2:
			var id antelope.Checksum256
			for j := range id {
				id[j] = byte(r.IntN(256))
			}
			chain = antelope.ESRChain{ByID: true, ID: id}
		default:
			chain = antelope.ESRChain{Alias: uint8(1 + r.IntN(12))}
		}
		abis := map[string]string{}
		pick := func() []antelope.Action {
			var out []antelope.Action
			for range r.IntN(3) + 1 {
				p := pool[r.IntN(len(pool))]
				if prev, ok := abis[p.action.Account.String()]; ok && prev != p.abi {
					continue
				}
				abis[p.action.Account.String()] = p.abi
				out = append(out, p.action)
			}
			return out
		}
		var req *antelope.ESR
		switch i % 4 {
		case 0:
			acts := pick()
			for len(acts) == 0 {
				acts = pick()
			}
			req = antelope.NewESR(chain, acts[0])
		case 1:
			req = antelope.NewESR(chain, pick()...)
			req.Kind = antelope.ESRKindActions // even for one action
		case 2:
			tx := antelope.Transaction{Actions: pick()}
			if r.IntN(2) == 0 {
				tx.Expiration = antelope.TimePointSec(1600000000 + r.Uint32N(500000000))
				tx.RefBlockNum, tx.RefBlockPrefix = uint16(r.Uint32()), r.Uint32()
			}
			tx.MaxCPUUsageMS, tx.DelaySec = uint8(r.IntN(3)), uint32(r.IntN(2))*60
			req = antelope.NewESRTransaction(chain, tx)
		case 3:
			var perm *antelope.PermissionLevel
			switch r.IntN(3) {
			case 0:
				perm = &antelope.PermissionLevel{Actor: randomGoName(r), Permission: randomGoName(r)}
			case 1:
				p := antelope.ESRPlaceholderAuth
				perm = &p
			}
			req = antelope.NewESRIdentity(chain, 0, perm)
			if chain.IsMultiChain() || r.IntN(2) == 0 {
				req.Version = 3
				req.Identity.Scope = randomGoName(r)
			}
		}
		if req.Version == 2 && r.IntN(4) == 0 {
			req.Version = 3
		}
		req.Flags = antelope.ESRFlags(r.IntN(4))
		if req.IsIdentity() {
			req.Flags &^= antelope.ESRBroadcast
		}
		if r.IntN(2) == 0 {
			req.Callback = []string{"https://example.com/{{tx}}", "x", "myapp://{{sa}}@{{sp}}"}[r.IntN(3)]
		}
		for j := range r.IntN(3) {
			v := make([]byte, r.IntN(10))
			for k := range v {
				v[k] = byte(r.IntN(256))
			}
			req.SetInfo([]string{"a", "memo", "ünï"}[j], v)
		}
		if chain.IsMultiChain() && r.IntN(2) == 0 {
			req.SetChainIDs(known[:1+r.IntN(len(known))]...)
		}
		g := goESR{Version: req.Version, Kind: req.Kind.String(), Callback: req.Callback, ABIs: abis}
		if r.IntN(5) == 0 {
			var secret [32]byte
			for k := range secret {
				secret[k] = byte(r.IntN(256))
			}
			key, err := antelope.NewPrivateKey(antelope.KeyK1, secret)
			if err != nil {
				continue
			}
			signer := randomGoName(r)
			if err := req.SignWith(key, signer); err != nil {
				t.Fatal(err)
			}
			g.RequestSigner = signer.String()
		}
		payload := must(req.Payload(false))
		g.URI = "esr:" + base64.RawURLEncoding.EncodeToString(payload)
		g.Compressed = "esr://" + must(req.Encode(true))
		g.Flags = uint8(req.Flags)
		if !chain.IsMultiChain() {
			g.ChainID = must(chain.ChainID()).String()
		}
		signer := antelope.PermissionLevel{Actor: randomGoName(r), Permission: randomGoName(r)}
		ctx := antelope.ESRContext{Expiration: antelope.TimePointSec(1600000000 + r.Uint32N(500000000)), RefBlockNum: uint16(r.Uint32()), RefBlockPrefix: r.Uint32()}
		if chain.IsMultiChain() {
			ctx.ChainID = known[0]
		}
		if res, err := req.Resolve(signer, ctx, golden.contracts(t, abis)); err == nil {
			c := map[string]any{"expiration": ctx.Expiration.String(), "ref_block_num": ctx.RefBlockNum, "ref_block_prefix": ctx.RefBlockPrefix}
			if chain.IsMultiChain() {
				c["chainId"] = ctx.ChainID.String()
			}
			g.Resolved = &goESRResolved{
				Signer:  map[string]string{"actor": signer.Actor.String(), "permission": signer.Permission.String()},
				Context: c,
				Packed:  hex.EncodeToString(must(res.Transaction.MarshalBinary())),
				Digest:  must(res.SigningDigest()).String(),
			}
		} else {
			t.Fatalf("go request %d: %v", i, err)
		}
		list = append(list, g)
	}
	if err := os.WriteFile(out, must(json.Marshal(list)), 0o644); err != nil {
		t.Fatal(err)
	}
}
