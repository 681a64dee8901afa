package antelope_test

import (
	"context"
	"fmt"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// A transaction from actions to signed, packed bytes: everything but the
// network. The chain package's Client.Transact does these steps for you.
func Example_signTransaction() {
	key, err := antelope.ParsePrivateKey("5KQvfsPJ9YvGuVbLRLXVWPNubed6FWvV8yax6cNSJEzB4co3zFu")
	if err != nil {
		panic(err)
	}
	pub, _ := key.PublicKey()
	fmt.Println("key:", pub)
	fmt.Printf("printed: %v\n", key) // a private key never prints its secret

	// The payload would come from a generated package, e.g.
	// randcontract.Default.Requestrand(…); here it is raw bytes.
	act := antelope.Action{
		Account:       antelope.MustName("orng.wax"),
		Name:          antelope.MustName("requestrand"),
		Authorization: []antelope.PermissionLevel{antelope.Active(antelope.MustName("mygamedapp"))},
		Data:          []byte{42, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0, 0x90, 0x55, 0x2a, 0x8a, 0x96, 0xa6, 0x97},
	}
	tx := antelope.Transaction{Actions: []antelope.Action{act}}
	// TAPoS: refer to a recent block (the last irreversible one, from
	// get_info), and expire in a few minutes.
	lib, _ := antelope.ParseChecksum256("0f8e0b3c5cf7c8e0a5ab1f9d2bbf1e2a7c0a2d4f9c51f0c7b8f3f1f2e3d4c5b6")
	tx.SetReferenceBlock(lib)
	tx.SetExpiration(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC).Add(2 * time.Minute))

	waxMainnet, _ := antelope.ParseChecksum256("1064487b3cd1a897ce03ae5b6a865651747e2e152090f99c1d19d44e01aea5a4")
	req, err := antelope.NewSigningRequest(waxMainnet, &tx, nil, nil)
	if err != nil {
		panic(err)
	}
	sigs, err := key.Sign(context.Background(), req) // any antelope.Signer: a KMS, an HSM, a wallet
	if err != nil {
		panic(err)
	}
	signed := antelope.SignedTransaction{Transaction: tx, Signatures: sigs}
	packed, err := signed.Pack(antelope.CompressionNone)
	if err != nil {
		panic(err)
	}
	id, _ := tx.ID() // @wharfkit/antelope gives the same id and signature

	fmt.Println("id:", id)
	fmt.Println("signature:", sigs[0])
	recovered, _ := sigs[0].RecoverPublicKey(req.Digest)
	fmt.Println("recovers to the key:", recovered.Equal(pub))
	body, _ := packed.MarshalJSON() // the push_transaction / send_transaction2 body
	fmt.Println(string(body)[:60] + "…")
	// Output:
	// key: EOS6RrvujLQN1x5Tacbep1KAk8zzKpSThAQXBCKYFfGUYeABhJRin
	// printed: PVT_K1_<redacted> EOS6RrvujLQN1x5Tacbep1KAk8zzKpSThAQXBCKYFfGUYeABhJRin
	// id: 74d7641bfaa28a9c367997704144b38a5771110f2d297e7ed1d995d8ff73de25
	// signature: SIG_K1_K1eoFGEvcxfGzVJxcUAtZvajQonZ8AsXJW1BVo6Yp22ntS6jrdY2Cr6RKBTPf66nXSKYjmmKfPmDmRCi19r1yoVZeJcxu6
	// recovers to the key: true
	// {"signatures":["SIG_K1_K1eoFGEvcxfGzVJxcUAtZvajQonZ8AsXJW1BV…
}
