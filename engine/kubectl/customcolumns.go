package kubectl

import (
	"fmt"
	"strings"

	"k8s.io/client-go/util/jsonpath"
)

// customColumn is one HEADER:JSONPATH column of -o custom-columns
// (cli-runtime printers.Column).
type customColumn struct {
	Header    string
	FieldSpec string // "{.metadata.name}"
}

// ParseCustomColumns mirrors cli-runtime's
// NewCustomColumnsPrinterFromSpec: spec is "HEADER:PATH[,HEADER:PATH...]",
// each PATH relaxed to "{.path}". Errors are kubectl's:
// "custom-columns format specified but no custom columns given",
// "unexpected custom-columns spec: <part>, expected <header>:<json-path-expr>"
// and RelaxedJSONPathExpression's. The JSONPaths themselves are parsed when
// printing, as upstream does.
func ParseCustomColumns(spec string) ([]customColumn, error) {
	if spec == "" {
		return nil, fmt.Errorf("custom-columns format specified but no custom columns given")
	}
	parts := strings.Split(spec, ",")
	cols := make([]customColumn, len(parts))
	for i, part := range parts {
		hdr, expr, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("unexpected custom-columns spec: %s, expected <header>:<json-path-expr>", part)
		}
		fs, err := RelaxedJSONPathExpression(expr)
		if err != nil {
			return nil, err
		}
		cols[i] = customColumn{Header: hdr, FieldSpec: fs}
	}
	return cols, nil
}

// parseCustomColumnsFile mirrors NewCustomColumnsPrinterFromTemplate: the
// first line holds the headers, the second the JSONPaths, separated by
// blanks, with its errors.
func parseCustomColumnsFile(text string) ([]customColumn, error) {
	lines := strings.Split(text, "\n")
	if len(lines) < 1 || (len(lines) == 1 && lines[0] == "") {
		return nil, fmt.Errorf("invalid template, missing header line. Expected format is one line of space separated headers, one line of space separated column specs.")
	}
	headers := strings.Fields(lines[0])
	if len(lines) < 2 || (len(lines) == 2 && lines[1] == "") {
		return nil, fmt.Errorf("invalid template, missing spec line. Expected format is one line of space separated headers, one line of space separated column specs.")
	}
	specs := strings.Fields(lines[1])
	if len(headers) != len(specs) {
		return nil, fmt.Errorf("number of headers (%d) and field specifications (%d) don't match", len(headers), len(specs))
	}
	cols := make([]customColumn, len(headers))
	for i := range headers {
		fs, err := RelaxedJSONPathExpression(specs[i])
		if err != nil {
			return nil, err
		}
		cols[i] = customColumn{Header: headers[i], FieldSpec: fs}
	}
	return cols, nil
}

// customColumnsTable mirrors CustomColumnsPrinter.PrintObj on a List: the
// headers, then one row per item, each cell the values
// the column's JSONPath finds, comma-joined, "<none>" when none (render
// it with noHeaders to drop the header line). The
// JSONPaths are parsed here (AllowMissingKeys), so a bad one is an error
// at print time as upstream.
func customColumnsTable(cols []customColumn, items []map[string]any) (*table, error) {
	parsers := make([]*jsonpath.JSONPath, len(cols))
	for i, c := range cols {
		parsers[i] = jsonpath.New(fmt.Sprintf("column%d", i)).AllowMissingKeys(true)
		if err := parsers[i].Parse(c.FieldSpec); err != nil {
			return nil, err
		}
	}
	t := &table{}
	for _, c := range cols {
		t.headers = append(t.headers, c.Header)
	}
	for _, it := range items {
		row := make([]string, len(cols))
		for i, p := range parsers {
			values, err := findResults(p, it)
			if err != nil {
				return nil, err
			}
			var strs []string
			if len(values) == 0 || len(values[0]) == 0 {
				strs = append(strs, "<none>")
			}
			for _, vs := range values {
				for _, v := range vs {
					strs = append(strs, fmt.Sprintf("%v", v.Interface()))
				}
			}
			row[i] = strings.Join(strs, ",")
		}
		t.rows = append(t.rows, row)
	}
	return t, nil
}
