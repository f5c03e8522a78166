package conformance_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/internal/jsontag"
	"github.com/kubesem/kubesem/plan"
)

// vocabRow is one row of VOCABULARY.md §1's Plan table: a field the house
// names, with its JSON key.
type vocabRow struct{ Field, JSON string }

// vocabularyTable reads the Plan table of VOCABULARY.md (rows whose first
// cell is a `Field`; the "writes" row stands for package-specific fields).
func vocabularyTable(t *testing.T) []vocabRow {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "VOCABULARY.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| `([A-Z][A-Za-z]*)` \\| [^|]+ \\| `([a-zA-Z]+)` \\|")
	var rows []vocabRow
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(line, "## 1. The Plan")
			continue
		}
		if m := row.FindStringSubmatch(line); in && m != nil {
			rows = append(rows, vocabRow{m[1], m[2]})
		}
	}
	if len(rows) < 8 {
		t.Fatalf("VOCABULARY.md §1 table: read %d rows %v; want Outcome … Memory", len(rows), rows)
	}
	return rows
}

// planType returns the Plan type a Step decision answers with: its output,
// or the Plan its output embeds.
func planType(d conformance.Decision) reflect.Type {
	t := d.Output
	if t.Kind() == reflect.Struct && !strings.HasSuffix(t.Name(), "Plan") {
		for i := range t.NumField() {
			if f := t.Field(i); f.Anonymous && strings.HasSuffix(f.Type.Name(), "Plan") {
				return f.Type
			}
		}
	}
	return t
}

// vocabularyProblems lists how Plan type p departs from the table.
func vocabularyProblems(p reflect.Type, rows []vocabRow) []string {
	var probs []string
	want := map[string]reflect.Type{
		"Outcome":      reflect.TypeFor[plan.Reason](),
		"Delete":       reflect.TypeFor[[]plan.Deletion](),
		"UpdateStatus": reflect.TypeFor[bool](),
		"Events":       reflect.TypeFor[[]plan.Event](),
		"Requeue":      reflect.TypeFor[[]plan.Requeue](),
	}
	required := []string{"Outcome", "Events", "Requeue"}
	pos := map[string]int{}
	keys := map[int]string{}
	for _, f := range jsontag.Fields(p) {
		if len(f.Index) == 1 {
			keys[f.Index[0]] = f.Name
		}
	}
	for i := range p.NumField() {
		f := p.Field(i)
		key := keys[i]
		for _, r := range rows {
			if r.Field == f.Name {
				pos[f.Name] = i
				if key != r.JSON {
					probs = append(probs, fmt.Sprintf("field %s has JSON key %q; VOCABULARY.md says %q", f.Name, key, r.JSON))
				}
				if w, ok := want[f.Name]; ok && f.Type != w {
					probs = append(probs, fmt.Sprintf("field %s is %s; want %s", f.Name, f.Type, w))
				}
			}
		}
		if f.Name == "Create" && !strings.HasPrefix(f.Type.String(), "plan.Creation[") {
			probs = append(probs, fmt.Sprintf("field Create is %s; want plan.Creation[T]", f.Type))
		}
		lower := strings.ToLower(f.Name)
		if f.Name != "Memory" && (strings.Contains(lower, "memory") || strings.Contains(lower, "backoff")) {
			probs = append(probs, fmt.Sprintf("controller memory in field %s; VOCABULARY.md names it Memory", f.Name))
		}
		if f.Type.Kind() == reflect.String && f.Type != reflect.TypeFor[plan.Reason]() && strings.HasSuffix(f.Name, "Reason") {
			probs = append(probs, fmt.Sprintf("field %s is a bare %s; want plan.Reason", f.Name, f.Type))
		}
	}
	for _, r := range required {
		if _, ok := pos[r]; !ok {
			probs = append(probs, "no field "+r)
		}
	}
	if _, ok := pos["Status"]; ok {
		if _, ok := pos["UpdateStatus"]; !ok {
			probs = append(probs, "Status without UpdateStatus")
		} else if pos["UpdateStatus"] != pos["Status"]+1 {
			probs = append(probs, "UpdateStatus does not follow Status")
		}
	}
	if pos["Outcome"] != 0 {
		probs = append(probs, "Outcome is not the first field")
	}
	last := -1
	for _, r := range rows {
		i, ok := pos[r.Field]
		if !ok {
			continue
		}
		if i < last {
			probs = append(probs, fmt.Sprintf("field %s is out of VOCABULARY.md's order", r.Field))
		}
		last = i
	}
	if _, ok := p.MethodByName("MarshalJSON"); !ok {
		probs = append(probs, "no MarshalJSON (plan.Encode)")
	}
	if m, ok := p.MethodByName("Writes"); !ok {
		probs = append(probs, "no Writes method (VOCABULARY.md §1b)")
	} else if n := m.Type.NumOut(); n != 2 || m.Type.Out(0) != reflect.TypeFor[[]plan.Write]() || m.Type.Out(1) != reflect.TypeFor[error]() {
		probs = append(probs, fmt.Sprintf("Writes returns %s; want ([]plan.Write, error)", m.Type))
	}
	return probs
}

// TestPlansSpeakTheVocabulary checks every registered Step decision's Plan
// against VOCABULARY.md §1 and §1b by reflection: field names, JSON keys,
// types and order of the house fields, Events and Requeue in every Plan,
// memory named Memory, MarshalJSON and Writes.
func TestPlansSpeakTheVocabulary(t *testing.T) {
	t.Parallel()
	rows := vocabularyTable(t)
	seen := map[reflect.Type]bool{}
	for _, d := range conformance.Registry() {
		if !strings.HasSuffix(d.Name, "Step") {
			continue
		}
		p := planType(d)
		if seen[p] {
			continue
		}
		seen[p] = true
		for _, pr := range vocabularyProblems(p, rows) {
			t.Errorf("%s (%s): %s", d.Name, p, pr)
		}
	}
	if len(seen) < 10 {
		t.Errorf("checked %d Plan types; want every Step's (at least 10)", len(seen))
	}
}

// TestVocabularyCheckCanFail feeds the check a Plan that breaks each rule.
func TestVocabularyCheckCanFail(t *testing.T) {
	t.Parallel()
	type bad struct {
		Requeue      []plan.Requeue `json:"requeue"`
		Outcome      string         `json:"result"`
		Backoff      int            `json:"backoff"`
		Status       int            `json:"status"`
		Events       []plan.Event   `json:"events"`
		UpdateStatus bool           `json:"updateStatus"`
	}
	probs := vocabularyProblems(reflect.TypeFor[bad](), vocabularyTable(t))
	for _, want := range []string{"JSON key \"result\"", "Outcome is string", "memory in field Backoff",
		"UpdateStatus does not follow Status", "Outcome is not the first field", "out of VOCABULARY.md's order",
		"no MarshalJSON", "no Writes"} {
		if !slices.ContainsFunc(probs, func(p string) bool { return strings.Contains(p, want) }) {
			t.Errorf("no problem mentions %q; got %q", want, probs)
		}
	}
}

// TestReasonConstantsOnly: every constant a package declares with its
// Reason type is named Reason… (VOCABULARY.md §1: "Reason constants only";
// no Path…, Event… families).
func TestReasonConstantsOnly(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("..", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, file := range dirs {
		if strings.HasSuffix(file, "_test.go") || strings.Contains(file, string(filepath.Separator)+"cmd"+string(filepath.Separator)) {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			var typ string
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if vs.Type != nil {
					typ = types(vs.Type)
				} else if len(vs.Values) > 0 {
					typ = ""
				}
				if typ != "Reason" && typ != "plan.Reason" {
					continue
				}
				for _, n := range vs.Names {
					checked++
					if n.IsExported() && !strings.HasPrefix(n.Name, "Reason") {
						t.Errorf("%s: constant %s of type %s; VOCABULARY.md wants Reason… names only", fset.Position(n.Pos()), n.Name, typ)
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked %d Reason constants; the walk is broken", checked)
	}
}

func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
}
