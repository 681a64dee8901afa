package abidiff

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

func itoa(n int) string { return strconv.Itoa(n) }

// WriteText prints the report for people: a heading per kind, then aligned
// rows of where and what. color adds ANSI colours (for a terminal).
func (r *Report) WriteText(w io.Writer, old, new string, color bool) error {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var b strings.Builder
	b.WriteString("abigen diff: " + old + " → " + new + "\n")
	if len(r.Changes) == 0 {
		b.WriteString(paint("32", "no change") + "\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	var last Kind
	for _, c := range r.Changes {
		if c.Kind != last {
			tw.Flush()
			heading := strings.ToUpper(string(c.Kind))
			if c.Kind == Compatible {
				heading = paint("32", heading)
			} else {
				heading = paint("1;31", heading)
			}
			b.WriteString("\n" + heading + "\n")
			last = c.Kind
		}
		tw.Write([]byte("  " + c.Where + "\t" + c.What + "\n"))
	}
	tw.Flush()
	breaking := 0
	for _, c := range r.Changes {
		if c.Kind != Compatible {
			breaking++
		}
	}
	b.WriteString("\n")
	if breaking > 0 {
		b.WriteString(paint("1;31", plural(breaking, "breaking change")) + ", " + plural(len(r.Changes)-breaking, "compatible change") + "\n")
	} else {
		b.WriteString(paint("32", "compatible: "+plural(len(r.Changes), "change")) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonReport is the --json form.
type jsonReport struct {
	Old      string   `json:"old"`
	New      string   `json:"new"`
	Breaking bool     `json:"breaking"`
	Changes  []Change `json:"changes"`
}

// WriteJSON prints the report for tools: {"old","new","breaking","changes":[{"kind","where","what"}]}.
func (r *Report) WriteJSON(w io.Writer, old, new string) error {
	changes := r.Changes
	if changes == nil {
		changes = []Change{}
	}
	b, err := json.MarshalIndent(jsonReport{old, new, r.Breaking(), changes}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
