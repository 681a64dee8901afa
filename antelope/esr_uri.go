package antelope

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io"
	"strconv"
	"strings"
)

// The wire forms of a signing request. The payload is a header byte (the
// version, with bit 7 set when compressed), then the request data and the
// request signature if any, raw-deflated (RFC 1951, no zlib header) when
// compressed. The text form is the payload in base64u (URL-safe base64
// without padding), after "esr:" in a URI.

// esrCompressed is the header bit of a compressed payload.
const esrCompressed = 1 << 7

// MaxESRSize is the most a compressed signing request may inflate to: a
// larger one is refused before it is inflated further, so that a small
// decompression bomb cannot take memory. It is the limit nodeos puts on a
// compressed transaction.
const MaxESRSize = MaxInflatedSize

// AppendPayload appends the payload: header byte, then the request data and
// signature, raw-deflated when compress is true and that makes them
// smaller (otherwise stored as they are, as wharfkit does).
func (r *ESR) AppendPayload(b []byte, compress bool) ([]byte, error) {
	body, err := r.AppendData(nil)
	if err != nil {
		return b, err
	}
	if r.Signature != nil {
		body = AppendUint64(body, uint64(r.Signature.Signer))
		if body, err = r.Signature.Signature.AppendBinary(body); err != nil {
			return b, AtField(err, "signature")
		}
	}
	header := r.Version
	if compress {
		if z := deflateRaw(body); len(z) < len(body) {
			header |= esrCompressed
			body = z
		}
	}
	return append(append(b, header), body...), nil
}

// Payload returns the payload (AppendPayload).
func (r *ESR) Payload(compress bool) ([]byte, error) { return r.AppendPayload(nil, compress) }

// Encode returns the payload in base64u: the part of the URI after
// "esr:".
func (r *ESR) Encode(compress bool) (string, error) {
	p, err := r.Payload(compress)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(p), nil
}

// URI returns the request as a compressed "esr://…" URI, the form wallets
// open from a link or a QR code (and @wharfkit/signing-request's default).
// URIWith writes the other forms.
func (r *ESR) URI() (string, error) { return r.URIWith(ESRURIForm{}) }

// ESRURIForm chooses how URIWith writes a request, as the arguments of
// @wharfkit/signing-request's encode(compress, slashes, scheme) do. The zero
// value is URI's form: compressed "esr://…".
type ESRURIForm struct {
	// Scheme is "esr" (the default) or "web+esr", the scheme a web page
	// can register a handler for.
	Scheme string
	// NoSlashes writes "esr:…" instead of "esr://…".
	NoSlashes bool
	// Uncompressed stores the payload instead of deflating it: a longer
	// URI, the same bytes in every implementation.
	Uncompressed bool
}

// URIWith returns the request as a URI of the given form; ParseESR reads
// every form back.
func (r *ESR) URIWith(f ESRURIForm) (string, error) {
	scheme := f.Scheme
	switch scheme {
	case "":
		scheme = "esr"
	case "esr", "web+esr":
	default:
		return "", valueErr("signing request", scheme, `the URI scheme must be "esr" or "web+esr"`)
	}
	s, err := r.Encode(!f.Uncompressed)
	if err != nil {
		return "", err
	}
	if f.NoSlashes {
		return scheme + ":" + s, nil
	}
	return scheme + "://" + s, nil
}

// String returns the URI, or a description of why r cannot be encoded.
func (r *ESR) String() string {
	s, err := r.URI()
	if err != nil {
		return "invalid ESR: " + err.Error()
	}
	return s
}

// deflateRaw compresses b as raw DEFLATE, at the best compression.
func deflateRaw(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression) // a valid level cannot fail
	_, _ = w.Write(b)                                    // a bytes.Buffer does not fail
	_ = w.Close()
	return buf.Bytes()
}

// ParseESR decodes a signing request from an "esr:" or "esr://" URI (also
// "web+esr:"), or from its bare base64u payload. Standard base64 letters
// ('+', '/') and padding are accepted too. A compressed payload is inflated
// up to MaxESRSize.
func ParseESR(s string) (*ESR, error) {
	text := s
	if i := strings.IndexByte(s, ':'); i >= 0 {
		scheme := s[:i]
		if scheme != "esr" && scheme != "web+esr" {
			return nil, valueErr("signing request", s, "not an esr: URI")
		}
		text = strings.TrimPrefix(s[i+1:], "//")
	}
	text = strings.TrimRight(text, "=")
	if strings.ContainsAny(text, "+/") {
		text = strings.NewReplacer("+", "-", "/", "_").Replace(text)
	}
	payload, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		return nil, valueErr("signing request", s, "not base64u: "+err.Error())
	}
	return DecodeESRPayload(payload)
}

// DecodeESRPayload decodes a signing request from its payload (header byte
// and data).
func DecodeESRPayload(payload []byte) (*ESR, error) {
	if len(payload) == 0 {
		return nil, valueErr("signing request", "", "empty payload")
	}
	header, body := payload[0], payload[1:]
	version := header &^ esrCompressed
	if version != 2 && version != 3 {
		return nil, valueErr("signing request", "", "unsupported protocol version "+strconv.Itoa(int(version))+" (2 and 3 are known)")
	}
	if header&esrCompressed != 0 {
		var err error
		if body, err = inflateRaw(body, MaxESRSize); err != nil {
			return nil, err
		}
	}
	return decodeESRData(version, body)
}

// InflateESRPayload returns payload with its body inflated and the
// compression bit cleared: the uncompressed payload of the same request. An
// uncompressed payload is returned as it is.
func InflateESRPayload(payload []byte) ([]byte, error) {
	if len(payload) == 0 || payload[0]&esrCompressed == 0 {
		return payload, nil
	}
	body, err := inflateRaw(payload[1:], MaxESRSize)
	if err != nil {
		return nil, err
	}
	return append([]byte{payload[0] &^ esrCompressed}, body...), nil
}

// inflateRaw inflates raw DEFLATE data, refusing output past limit before
// producing more of it.
func inflateRaw(b []byte, limit int) ([]byte, error) {
	zr := flate.NewReader(bytes.NewReader(b))
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, int64(limit)+1))
	if err != nil {
		return nil, valueErr("signing request", "", "inflating the payload: "+err.Error())
	}
	if len(out) > limit {
		return nil, valueErr("signing request", "", "the payload inflates past "+strconv.Itoa(limit)+" bytes")
	}
	return out, nil
}
