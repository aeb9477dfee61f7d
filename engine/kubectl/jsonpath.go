package kubectl

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"k8s.io/client-go/util/jsonpath"
)

// The JSONPath used by -o jsonpath, custom-columns and --sort-by is
// k8s.io/client-go/util/jsonpath itself (kubectl's own implementation; it
// imports only the standard library and a fork of text/template's helpers,
// so the wasm build stays free of k8s.io/api and apimachinery).

// jsonFormats are the -o values of cli-runtime's JSONPathPrintFlags.
var jsonFormats = map[string]bool{"jsonpath": true, "jsonpath-as-json": true, "jsonpath-file": true}

// jsonPathPrinter mirrors cli-runtime printers.JSONPathPrinter with the
// flags kubectl get sets (AllowMissingKeys true, JSON output for
// jsonpath-as-json).
type jsonPathPrinter struct {
	raw string
	jp  *jsonpath.JSONPath
}

// newJSONPathPrinter mirrors JSONPathPrintFlags.ToPrinter for format
// ("jsonpath", "jsonpath-as-json", "jsonpath-file") and its template (for
// jsonpath-file, the template is the file's text already read). Errors are
// kubectl's: "template format specified but no template given",
// "error parsing jsonpath <tmpl>, <parser error>".
func newJSONPathPrinter(format, tmpl string) (*jsonPathPrinter, error) {
	if tmpl == "" {
		return nil, &plainError{"template format specified but no template given"}
	}
	j := jsonpath.New("out")
	if err := j.Parse(tmpl); err != nil {
		return nil, &plainError{fmt.Sprintf("error parsing jsonpath %s, %v", tmpl, err)}
	}
	j.AllowMissingKeys(true)
	if format == "jsonpath-as-json" {
		j.EnableJSONOutput(true)
	}
	return &jsonPathPrinter{raw: tmpl, jp: j}, nil
}

// print executes the template on a rendered object (or List). The error
// is JSONPathPrinter.PrintObj's, with the object dumped as %#v.
func (p *jsonPathPrinter) print(obj map[string]any) (out string, perr error) {
	var b strings.Builder
	defer func() {
		if r := recover(); r != nil {
			out, perr = b.String(), &plainError{fmt.Sprintf("error executing jsonpath %q: %v", p.raw, r)}
		}
	}()
	if err := p.jp.Execute(&b, obj); err != nil {
		var buf strings.Builder
		fmt.Fprintf(&buf, "Error executing template: %v. Printing more information for debugging the template:\n", err)
		fmt.Fprintf(&buf, "\ttemplate was:\n\t\t%v\n", p.raw)
		fmt.Fprintf(&buf, "\tobject given to jsonpath engine was:\n\t\t%#v\n\n", obj)
		return b.String(), &plainError{fmt.Sprintf("error executing jsonpath %q: %v", p.raw, buf.String())}
	}
	return b.String(), nil
}

// relaxedJSONPathRegexp is cli-runtime's jsonRegexp.
var relaxedJSONPathRegexp = regexp.MustCompile(`^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`)

// RelaxedJSONPathExpression mirrors cli-runtime's
// printers.RelaxedJSONPathExpression (used by custom-columns and
// --sort-by): "name1.name2", ".name1.name2", "{name1.name2}" and
// "{.name1.name2}" all become "{.name1.name2}"; "" stays "".
func RelaxedJSONPathExpression(expr string) (string, error) {
	if expr == "" {
		return expr, nil
	}
	sub := relaxedJSONPathRegexp.FindStringSubmatch(expr)
	if sub == nil {
		return "", fmt.Errorf("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'")
	}
	spec := sub[1]
	if spec == "" {
		spec = sub[2]
	}
	return "{." + spec + "}", nil
}

// findResults runs a parsed JSONPath over obj (FindResults), never
// panicking: client-go's evaluator is defensive, but a recover keeps a
// malformed expression from taking the playground down.
func findResults(jp *jsonpath.JSONPath, obj any) (res [][]reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%v", r)
		}
	}()
	return jp.FindResults(obj)
}
