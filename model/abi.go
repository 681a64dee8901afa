package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// ABI is an ABI document as written, before validation. Its JSON form is
// the chain's: missing arrays mean empty, unknown keys are ignored.
type ABI struct {
	Version          string            `json:"version"`                  // "eosio::abi/1.x"
	Types            []TypeDef         `json:"types"`                    // typedefs
	Structs          []StructDef       `json:"structs"`                  // struct types
	Actions          []ActionDef       `json:"actions"`                  // actions and their payload types
	Tables           []TableDef        `json:"tables"`                   // tables and their row types
	RicardianClauses []ClausePair      `json:"ricardian_clauses"`        // clauses of the ricardian contract
	ErrorMessages    []ErrorMessage    `json:"error_messages"`           // error codes and messages
	ABIExtensions    json.RawMessage   `json:"abi_extensions,omitempty"` // must be empty: no extension is defined
	Variants         []VariantDef      `json:"variants"`                 // ABI 1.1: variant types
	ActionResults    []ActionResultDef `json:"action_results"`           // ABI 1.2: the types actions return
}

// TypeDef is a typedef: new_type_name is another name for type.
type TypeDef struct {
	NewTypeName string `json:"new_type_name"` // the new name
	Type        string `json:"type"`          // the type it names
}

// StructDef is a struct, with an optional base struct.
type StructDef struct {
	Name   string     `json:"name"`   // the struct name
	Base   string     `json:"base"`   // the base struct, or ""
	Fields []FieldDef `json:"fields"` // the fields, in encoding order
}

// FieldDef is one field of a struct.
type FieldDef struct {
	Name string `json:"name"` // the field name
	Type string `json:"type"` // its type, as spelled ("uint64[]", "name?", "asset$")
}

// ActionDef is an action and the type of its data.
type ActionDef struct {
	Name              string `json:"name"`               // the action name
	Type              string `json:"type"`               // its payload type
	RicardianContract string `json:"ricardian_contract"` // the action's ricardian text
}

// TableDef is a table and the type of its rows.
type TableDef struct {
	Name      string   `json:"name"`       // the table name
	IndexType string   `json:"index_type"` // usually "i64"
	KeyNames  []string `json:"key_names"`  // informative: names of the keys
	KeyTypes  []string `json:"key_types"`  // informative: types of the keys
	Type      string   `json:"type"`       // the row type
}

// ClausePair is a ricardian clause.
type ClausePair struct {
	ID   string `json:"id"`   // the clause id
	Body string `json:"body"` // the clause text
}

// ErrorMessage maps an error code to its message.
type ErrorMessage struct {
	Code    ErrorCode `json:"error_code"` // the error code
	Message string    `json:"error_msg"`  // its message
}

// ErrorCode is a uint64 that JSON may give as a number or a string, as nodeos
// prints codes above 2^32−1 as strings.
type ErrorCode uint64

// UnmarshalJSON reads a number or a numeric string.
func (c *ErrorCode) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("error_code %s: not a uint64", b)
	}
	*c = ErrorCode(v)
	return nil
}

// VariantDef is a variant: a value of one of the listed types.
type VariantDef struct {
	Name  string   `json:"name"`  // the variant name
	Types []string `json:"types"` // its alternatives, in index order
}

// ActionResultDef gives the type of an action's return value (ABI 1.2).
type ActionResultDef struct {
	Name       string `json:"name"`        // the action
	ResultType string `json:"result_type"` // the type it returns
}

// canonicalJSON renders the ABI with every array present, for sources that
// carry no JSON of their own (packed ABIs).
func (a *ABI) canonicalJSON() []byte {
	c := *a
	c.ABIExtensions = nil
	if c.Types == nil {
		c.Types = []TypeDef{}
	}
	if c.Structs == nil {
		c.Structs = []StructDef{}
	}
	c.Structs = append([]StructDef{}, c.Structs...) // the loop below must not write into a
	for i := range c.Structs {
		if c.Structs[i].Fields == nil {
			c.Structs[i].Fields = []FieldDef{}
		}
	}
	if c.Actions == nil {
		c.Actions = []ActionDef{}
	}
	if c.Tables == nil {
		c.Tables = []TableDef{}
	}
	c.Tables = append([]TableDef{}, c.Tables...)
	for i := range c.Tables {
		if c.Tables[i].KeyNames == nil {
			c.Tables[i].KeyNames = []string{}
		}
		if c.Tables[i].KeyTypes == nil {
			c.Tables[i].KeyTypes = []string{}
		}
	}
	if c.RicardianClauses == nil {
		c.RicardianClauses = []ClausePair{}
	}
	if c.ErrorMessages == nil {
		c.ErrorMessages = []ErrorMessage{}
	}
	if c.Variants == nil {
		c.Variants = []VariantDef{}
	}
	c.Variants = append([]VariantDef{}, c.Variants...)
	for i := range c.Variants {
		if c.Variants[i].Types == nil {
			c.Variants[i].Types = []string{}
		}
	}
	if c.ActionResults == nil {
		c.ActionResults = []ActionResultDef{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(&c) // cannot fail: plain data
	return buf.Bytes()
}

// MarshalJSON writes the code as a number.
func (c ErrorCode) MarshalJSON() ([]byte, error) {
	return strconv.AppendUint(nil, uint64(c), 10), nil
}
