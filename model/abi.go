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
	Version          string            `json:"version"`
	Types            []TypeDef         `json:"types"`
	Structs          []StructDef       `json:"structs"`
	Actions          []ActionDef       `json:"actions"`
	Tables           []TableDef        `json:"tables"`
	RicardianClauses []ClausePair      `json:"ricardian_clauses"`
	ErrorMessages    []ErrorMessage    `json:"error_messages"`
	ABIExtensions    json.RawMessage   `json:"abi_extensions,omitempty"`
	Variants         []VariantDef      `json:"variants"`
	ActionResults    []ActionResultDef `json:"action_results"`
}

// TypeDef is a typedef: new_type_name is another name for type.
type TypeDef struct {
	NewTypeName string `json:"new_type_name"`
	Type        string `json:"type"`
}

// StructDef is a struct, with an optional base struct.
type StructDef struct {
	Name   string     `json:"name"`
	Base   string     `json:"base"`
	Fields []FieldDef `json:"fields"`
}

// FieldDef is one field of a struct.
type FieldDef struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// ActionDef is an action and the type of its data.
type ActionDef struct {
	Name              string `json:"name"`
	Type              string `json:"type"`
	RicardianContract string `json:"ricardian_contract"`
}

// TableDef is a table and the type of its rows.
type TableDef struct {
	Name      string   `json:"name"`
	IndexType string   `json:"index_type"`
	KeyNames  []string `json:"key_names"`
	KeyTypes  []string `json:"key_types"`
	Type      string   `json:"type"`
}

// ClausePair is a ricardian clause.
type ClausePair struct {
	ID   string `json:"id"`
	Body string `json:"body"`
}

// ErrorMessage maps an error code to its message.
type ErrorMessage struct {
	Code    ErrorCode `json:"error_code"`
	Message string    `json:"error_msg"`
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
	Name  string   `json:"name"`
	Types []string `json:"types"`
}

// ActionResultDef gives the type of an action's return value (ABI 1.2).
type ActionResultDef struct {
	Name       string `json:"name"`
	ResultType string `json:"result_type"`
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
