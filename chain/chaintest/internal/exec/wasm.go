package exec

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
	"github.com/antelopego/abigen/model"
)

// Real contracts: WebAssembly code run by the wazero engine with nodeos's
// intrinsics (internal/wasm), deployed with DeployWASM or through eosio's
// setcode and setabi actions (what chain.Client.Deploy sends).

// codeRAM is the RAM setcode and setabi bill account for its contract:
// its wasm ten times over and its packed ABI.
func (c *Engine) codeRAM(account antelope.Name) int64 {
	ct := c.Contract(account)
	if ct == nil {
		return 0
	}
	return int64(len(ct.Code))*setcodeRAMMultiplier + int64(len(ct.PackedABI))
}

// Close releases the wasm engine, if one was made; a contract run after
// makes a new one.
func (c *Engine) Close() {
	if c.wasm != nil {
		_ = c.wasm.Close()
		c.wasm = nil
	}
}

// WasmEngine is the chain's wasm engine, made on first use.
func (c *Engine) WasmEngine() (*wasm.Engine, error) {
	if c.wasm == nil {
		e, err := wasm.NewEngine(wasm.Config{Interpreter: c.interpreter, PrivateCache: c.ownCache})
		if err != nil {
			return nil, err
		}
		c.wasm = e
	}
	return c.wasm, nil
}

// setCode sets (or, with no code, clears) account's wasm, replacing a Go
// handler; its ABI stays.
func (c *Engine) setCode(u *UndoLog, account antelope.Name, code []byte, at time.Time) error {
	var mod *wasm.Module
	if len(code) > 0 {
		e, err := c.WasmEngine()
		if err != nil {
			return err
		}
		if mod, err = e.Compile(code); err != nil {
			var ex *wasm.Exception
			if errors.As(err, &ex) {
				return &Exception{code: ex.Code, name: ex.Name, what: ex.What, detail: ex.Message}
			}
			return err
		}
	}
	u.contract(c, account)
	u.account(c, account)
	ct := c.contractCopy(account)
	ct.handler = nil
	ct.Module, ct.Code = mod, append([]byte(nil), code...)
	ct.CodeHash = antelope.Checksum256{}
	if len(code) > 0 {
		ct.CodeHash = sha256.Sum256(code)
	}
	c.Contracts[account] = ct
	acct := c.Account(account)
	acct.codeSequence++
	acct.LastCodeUpdate = at
	return nil
}

// setABI sets account's ABI: packed as the chain stores it (setabi's
// bytes), and as JSON for get_abi and the state service. Bytes that are no
// ABI are stored as nodeos stores them, with no tables readable.
func (c *Engine) setABI(u *UndoLog, account antelope.Name, abi []byte) error {
	u.contract(c, account)
	u.account(c, account)
	ct := c.contractCopy(account)
	ct.PackedABI, ct.ABI = nil, nil
	ct.Tables = map[antelope.Name]bool{}
	if len(abi) > 0 {
		src, err := model.Load(abi)
		if err == nil {
			packed, perr := src.ABI.Pack()
			if perr != nil {
				return ErrActionValidate("packing the ABI: " + perr.Error())
			}
			if looksPackedABI(abi) {
				packed = append([]byte(nil), abi...) // the bytes as sent
			}
			ct.PackedABI, ct.ABI = packed, src.JSON
			if err := ct.ReadTables(src.JSON); err != nil {
				return ErrActionValidate(err.Error())
			}
		} else {
			ct.PackedABI = append([]byte(nil), abi...)
		}
	}
	c.Contracts[account] = ct
	c.Account(account).abiSequence++
	u.abiVersion(c, account)
	c.ABIs[account] = append(c.ABIs[account], ABIVersion{Block: c.above.NextBlockNum(), JSON: ct.ABI})
	return nil
}

// contractCopy is a copy of account's contract to change (an empty one
// when it has none): contracts are replaced, never changed in place, so
// that the undo log's copy stays as it was.
func (c *Engine) contractCopy(account antelope.Name) *Contract {
	if old := c.Contract(account); old != nil {
		cp := *old
		return &cp
	}
	return &Contract{Tables: map[antelope.Name]bool{}}
}

// looksPackedABI reports bytes that start as a packed ABI (the version
// string "eosio::abi/1.x").
func looksPackedABI(b []byte) bool {
	return len(b) > 12 && b[0] >= 13 && string(b[1:12]) == "eosio::abi/"
}

// ReadTables reads the table names of an ABI's JSON.
func (ct *Contract) ReadTables(abiJSON []byte) error {
	var abi struct {
		Tables []struct {
			Name string `json:"name"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(abiJSON, &abi); err != nil {
		return err
	}
	for _, t := range abi.Tables {
		n, err := antelope.ParseName(t.Name)
		if err != nil {
			return fmt.Errorf("table %q: %v", t.Name, err)
		}
		ct.Tables[n] = true
	}
	return nil
}
