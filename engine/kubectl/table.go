package kubectl

import (
	"strings"
	"text/tabwriter"
	"unicode/utf8"
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

// layoutRows lays out rows as kubectl's tab writer does with its
// RememberWidths flag (github.com/liggitt/tabwriter, which
// printers.GetNewTabWriter uses): every cell but the last of a row is
// padded to its column's width, the widest cell plus the padding (at least
// the minimum width); widths holds the widths of earlier flushes and is
// updated, so columns never shrink across the lines a watch prints. All
// rows are expected to have the same number of cells, as tables do.
func layoutRows(rows [][]string, widths *[]int) string {
	w := *widths
	for _, r := range rows {
		for i := 0; i < len(r)-1; i++ {
			for len(w) <= i {
				w = append(w, 0)
			}
			cw := utf8.RuneCountInString(cellSanitizer.Replace(r[i])) + tabwriterPadding
			if cw < tabwriterMinWidth {
				cw = tabwriterMinWidth
			}
			if cw > w[i] {
				w[i] = cw
			}
		}
	}
	*widths = w
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			c = cellSanitizer.Replace(c)
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(string(rune(tabwriterPadChar)), w[i]-utf8.RuneCountInString(c)))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
