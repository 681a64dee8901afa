package antelope

import (
	"strings"
	"testing"
)

// Every URI form reads back as the same request, with the prefix asked for;
// an uncompressed one carries the plain payload.
func TestESRURIForms(t *testing.T) {
	act := Action{Account: MustName("eosio.token"), Name: MustName("transfer"),
		Authorization: []PermissionLevel{ESRPlaceholderAuth}, Data: make([]byte, 40)}
	req := NewESR(ESRChainFor(Checksum256{1}), act)
	want, err := req.Payload(false)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := req.Encode(false)
	for _, c := range []struct {
		form   ESRURIForm
		prefix string
	}{
		{ESRURIForm{}, "esr://"},
		{ESRURIForm{NoSlashes: true}, "esr:"},
		{ESRURIForm{Scheme: "web+esr"}, "web+esr://"},
		{ESRURIForm{Scheme: "web+esr", NoSlashes: true, Uncompressed: true}, "web+esr:" + plain},
		{ESRURIForm{Uncompressed: true}, "esr://" + plain},
	} {
		uri, err := req.URIWith(c.form)
		if err != nil {
			t.Fatalf("%+v: %v", c.form, err)
		}
		if !strings.HasPrefix(uri, c.prefix) || (!c.form.NoSlashes && !strings.Contains(uri, "://")) || (c.form.NoSlashes && strings.Contains(uri, "//")) {
			t.Errorf("%+v: %s, want the prefix %s", c.form, uri, c.prefix)
		}
		back, err := ParseESR(uri)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if got, _ := back.Payload(false); string(got) != string(want) {
			t.Errorf("%s reads back as another request", uri)
		}
	}
	if u, _ := req.URI(); !strings.HasPrefix(u, "esr://") {
		t.Errorf("URI() = %s", u)
	}
	if _, err := req.URIWith(ESRURIForm{Scheme: "https"}); err == nil {
		t.Error("an https scheme was accepted")
	}
}
