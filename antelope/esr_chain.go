package antelope

import "strconv"

// ESRChain is the chain a signing request is for: a one-byte alias of a
// well-known chain, or a full chain id. Alias 0 (the zero ESRChain) means
// any chain: a multi-chain request (version 3), which the wallet resolves
// for the chain it chooses, optionally among ChainIDs.
type ESRChain struct {
	// ByID selects the encoding: the 32-byte ID, or the one-byte Alias.
	ByID  bool
	Alias uint8       // the alias, when ByID is false (see ESRChainAliases)
	ID    Checksum256 // the chain id, when ByID is true
}

// ESRChainAliases maps the protocol's chain aliases to chain ids: EOS 1,
// Telos 2, Jungle 3, Kylin 4, Worbli 5, BOS 6, MEET.ONE 7, Insights 8,
// BEOS 9, WAX 10, Proton 11, FIO 12 (@wharfkit/signing-request's table;
// Jungle's alias 3 is the retired Jungle 2's id, e70aaab8…, not Jungle 4's
// 73e4385a…, which a request must carry by id).
var ESRChainAliases = map[uint8]Checksum256{
	1:  mustChecksum256("aca376f206b8fc25a6ed44dbdc66547c36c6c33e3a119ffbeaef943642f0e906"),
	2:  mustChecksum256("4667b205c6838ef70ff7988f6e8257e8be0e1284a2f59699054a018f743b1d11"),
	3:  mustChecksum256("e70aaab8997e1dfce58fbfac80cbbb8fecec7b99cf982a9444273cbc64c41473"),
	4:  mustChecksum256("5fff1dae8dc8e2fc4d5b23b2c7665c97f9e9d8edf2b6485a86ba311c25639191"),
	5:  mustChecksum256("73647cde120091e0a4b85bced2f3cfdb3041e266cbbe95cee59b73235a1b3b6f"),
	6:  mustChecksum256("d5a3d18fbb3c084e3b1f3fa98c21014b5f3db536cc15d08f9f6479517c6a3d86"),
	7:  mustChecksum256("cfe6486a83bad4962f232d48003b1824ab5665c36778141034d75e57b956e422"),
	8:  mustChecksum256("b042025541e25a472bffde2d62edd457b7e70cee943412b1ea0f044f88591664"),
	9:  mustChecksum256("b912d19a6abd2b1b05611ae5be473355d64d95aeff0c09bedc8c166cd6468fe4"),
	10: mustChecksum256("1064487b3cd1a897ce03ae5b6a865651747e2e152090f99c1d19d44e01aea5a4"),
	11: mustChecksum256("384da888112027f0321850a169f737c33e53b388aad48b5adace4bab97f437e0"),
	12: mustChecksum256("21dcae42c0182200e93f954a074011f9048a7624c6fe81d3c9541a614a88bd1c"),
}

func mustChecksum256(s string) Checksum256 {
	c, err := ParseChecksum256(s)
	if err != nil {
		panic(err) // the table above is constant
	}
	return c
}

// ESRChainFor returns the ESRChain for a chain id: its alias when the id
// has one (as wharfkit encodes it, one byte instead of 32), else the id.
func ESRChainFor(id Checksum256) ESRChain {
	for alias := uint8(1); alias <= 12; alias++ {
		if ESRChainAliases[alias] == id {
			return ESRChain{Alias: alias}
		}
	}
	return ESRChain{ByID: true, ID: id}
}

// ESRAnyChain is the chain of a multi-chain request: alias 0.
var ESRAnyChain = ESRChain{}

// IsMultiChain reports whether c is alias 0: any chain.
func (c ESRChain) IsMultiChain() bool { return !c.ByID && c.Alias == 0 }

// ChainID returns the chain id c names: the ID, or the id of the alias.
// It fails for a multi-chain request and for an alias the table does not
// know.
func (c ESRChain) ChainID() (Checksum256, error) {
	if c.ByID {
		return c.ID, nil
	}
	if c.Alias == 0 {
		return Checksum256{}, valueErr("chain alias", "0", "a multi-chain request names no chain: the signer chooses one")
	}
	id, ok := ESRChainAliases[c.Alias]
	if !ok {
		return Checksum256{}, valueErr("chain alias", strconv.Itoa(int(c.Alias)), "unknown alias")
	}
	return id, nil
}

func (c ESRChain) appendBinary(b []byte) []byte {
	if c.ByID {
		return append(append(b, 1), c.ID[:]...)
	}
	return append(b, 0, c.Alias)
}

func (c *ESRChain) decodeBinary(d *Decoder) error {
	i, err := d.VariantIndex("chain variant", 2)
	if err != nil {
		return err
	}
	if i == 0 {
		*c = ESRChain{}
		c.Alias, err = d.Uint8()
		return err
	}
	raw, err := d.Raw("chain_id", 32)
	if err != nil {
		return err
	}
	*c = ESRChain{ByID: true, ID: Checksum256(raw)}
	return nil
}

// ESRInfoChainIDs is the info key of the chains a multi-chain request is
// limited to.
const ESRInfoChainIDs = "chain_ids"

// ChainIDs returns the chains a multi-chain request is limited to (its
// "chain_ids" info pair); nil when it is not limited, or not multi-chain.
func (r *ESR) ChainIDs() ([]ESRChain, error) {
	if !r.Chain.IsMultiChain() {
		return nil, nil
	}
	v, ok := r.InfoValue(ESRInfoChainIDs)
	if !ok {
		return nil, nil
	}
	d := Decoder{data: v}
	n, err := d.Length("chain_ids", 2)
	if err != nil {
		return nil, AtField(err, ESRInfoChainIDs)
	}
	out := make([]ESRChain, n)
	for i := range out {
		if err := out[i].decodeBinary(&d); err != nil {
			return nil, AtIndex(AtField(err, ESRInfoChainIDs), i)
		}
	}
	return out, AtField(d.Finish(), ESRInfoChainIDs)
}

// SetChainIDs limits a multi-chain request to the given chains (the
// "chain_ids" info pair), each written as its alias where it has one.
func (r *ESR) SetChainIDs(ids ...Checksum256) {
	b := AppendVarUint32(nil, uint32(len(ids)))
	for _, id := range ids {
		b = ESRChainFor(id).appendBinary(b)
	}
	r.SetInfo(ESRInfoChainIDs, b)
}
