package kubectl

import (
	"strings"
	"text/tabwriter"
)

// Tab-writer parameters of cli-runtime's printers.GetNewTabWriter.
const (
	tabwriterMinWidth = 6
	tabwriterWidth    = 4
	tabwriterPadding  = 3
	tabwriterPadChar  = ' '
	tabwriterFlags    = 0
)

// table is a human-readable table as kubectl prints it: upper-case headers,
// cells separated by tabs, aligned by the tab writer; the last column is
// never padded.
type table struct {
	headers []string
	rows    [][]string
}

// cellSanitizer replaces a tab or newline inside a cell, which would break
// the alignment, with a space.
var cellSanitizer = strings.NewReplacer("\t", " ", "\n", " ")

// render writes the table through a tab writer with kubectl's parameters.
// noHeaders omits the header line.
func (t *table) render(noHeaders bool) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, tabwriterMinWidth, tabwriterWidth, tabwriterPadding, tabwriterPadChar, tabwriterFlags)
	if !noHeaders {
		w.Write([]byte(strings.Join(t.headers, "\t") + "\n"))
	}
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = cellSanitizer.Replace(c)
		}
		w.Write([]byte(strings.Join(cells, "\t") + "\n"))
	}
	w.Flush()
	return b.String()
}
