package chaintest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Every reference contract is the file testdata/wasm/README.md lists, with
// the hash it records, and ReferenceContract's provenance says so.
func TestReferenceContractsMatchTheirProvenance(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("testdata", "wasm", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := chaintest.ReferenceContracts()
	if len(names) != 4 {
		t.Fatalf("ReferenceContracts() = %v", names)
	}
	for _, name := range names {
		ref, err := chaintest.ReferenceContract(name)
		if err != nil {
			t.Fatal(err)
		}
		for ext, got := range map[string][]byte{"wasm": ref.Code, "abi": ref.ABI} {
			sum := sha256.Sum256(got)
			row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(name+"."+ext) + "` \\| \\d+ \\| `([0-9a-f]{64})` \\| leap:`([^`]+)`").FindSubmatch(readme)
			if row == nil {
				t.Fatalf("%s.%s: not in testdata/wasm/README.md", name, ext)
			}
			if hex.EncodeToString(sum[:]) != string(row[1]) {
				t.Errorf("%s.%s: sha256 %x, README says %s", name, ext, sum, row[1])
			}
			if !strings.Contains(ref.Provenance, string(row[2])) || !strings.Contains(ref.Provenance, hex.EncodeToString(sum[:])) {
				t.Errorf("%s: provenance %q lacks %s and its hash", name, ref.Provenance, row[2])
			}
		}
		again, _ := chaintest.ReferenceContract(name)
		again.Code[0] ^= 0xff
		if third, _ := chaintest.ReferenceContract(name); !bytes.Equal(third.Code, ref.Code) {
			t.Fatalf("%s: changing one caller's bytes changed the next caller's", name)
		}
	}
	if _, err := chaintest.ReferenceContract("eosio.powerup"); err == nil || !strings.Contains(err.Error(), "eosio.token") {
		t.Errorf("unknown contract: %v, want an error listing the known ones", err)
	}
}

// The README's tour: the real eosio.token from code, deployed, and a
// transfer through the generated bindings.
func TestReferenceTokenRuns(t *testing.T) {
	ref, err := chaintest.ReferenceContract("eosio.token")
	if err != nil {
		t.Fatal(err)
	}
	node := chaintest.New(chaintest.WithoutNetwork())
	defer node.Close()
	tokenAcct, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	tokenKey := node.NewAccount(tokenAcct)
	aliceKey := node.NewAccount(alice)
	node.NewAccount(bob)
	if err := node.DeployWASM(tokenAcct, ref.Code, ref.ABI); err != nil {
		t.Fatal(err)
	}
	token := eosiotoken.Contract{Account: tokenAcct}
	c := node.Client()
	create, _ := token.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 SYS")}, antelope.Active(tokenAcct))
	issue, _ := token.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("10.0000 SYS")}, antelope.Active(alice))
	send, _ := token.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: antelope.MustAsset("2.5000 SYS")}, antelope.Active(alice))
	if _, err := c.Transact(t.Context(), tokenKey, create); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Transact(t.Context(), aliceKey, issue, send); err != nil {
		t.Fatal(err)
	}
	row, err := eosiotoken.TableAccounts.Get(t.Context(), c, bob, uint64(antelope.MustSymbolCode("SYS")))
	if err != nil || row.Balance != antelope.MustAsset("2.5000 SYS") {
		t.Fatalf("bob's balance: %v, %v", row, err)
	}
}
