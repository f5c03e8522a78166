package conformance

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/internal/apijson"
)

// Vector is one conformance case.
type Vector struct {
	// Decision names what is decided, as "<package>.<Decision>".
	Decision string `json:"decision"`
	// Name is unique within the package's vectors.
	Name string `json:"name"`
	// Source cites where the expectation comes from: a seed section, an
	// upstream test, an issue, or a property or differential run.
	Source string `json:"source"`
	// Options are the package Options as JSON; absent means v1.36.3 defaults.
	Options json.RawMessage `json:"options,omitempty"`
	// Input is the decision's input.
	Input json.RawMessage `json:"input"`
	// Exactly one of Want, WantOneOf and WantError is set.
	Want      json.RawMessage   `json:"want,omitempty"`
	WantOneOf []json.RawMessage `json:"wantOneOf,omitempty"`
	WantError *WantError        `json:"wantError,omitempty"`

	// Package and File say where the vector was loaded from.
	Package string `json:"-"`
	File    string `json:"-"`
}

// WantError is an expected input error: the field path and the error kind
// ("Invalid", "Negative", "Overflow", "Required", "Unsupported",
// "Duplicate", "Forbidden"), as field.Kind spells it.
type WantError struct {
	Field string `json:"field"`
	Kind  string `json:"kind"`
}

// MaxVectorFile is the largest vector file Load reads, in bytes.
const MaxVectorFile = 256 << 20

// Load reads every "<package>/*.json" file of fsys (each at most
// MaxVectorFile bytes). Each file holds a JSON
// array of vectors, read as the API server reads JSON (a repeated or
// unknown key is an error naming its path). It returns an error naming the
// file and vector for a
// vector without a decision, name, source or input, with a decision of
// another package, with a name used twice in a package, or without exactly
// one of want, wantOneOf and wantError. Vectors come back sorted by package,
// file and position.
func Load(fsys fs.FS) ([]Vector, error) {
	files, err := fs.Glob(fsys, "*/*.json")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var all []Vector
	seen := map[string]string{}
	for _, file := range files {
		if st, err := fs.Stat(fsys, file); err == nil && st.Size() > MaxVectorFile {
			return nil, fmt.Errorf("%s: %d bytes, more than the %d a vector file may hold", file, st.Size(), MaxVectorFile)
		}
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, err
		}
		var vs []Vector
		if err := apijson.UnmarshalStrict(data, &vs); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		pkg := path.Dir(file)
		for i := range vs {
			v := &vs[i]
			v.Package, v.File = pkg, file
			if err := v.check(); err != nil {
				return nil, fmt.Errorf("%s: vector %d (%q): %v", file, i, v.Name, err)
			}
			key := pkg + "/" + v.Name
			if prev, dup := seen[key]; dup {
				return nil, fmt.Errorf("%s: vector %q: name already used in %s", file, v.Name, prev)
			}
			seen[key] = file
		}
		all = append(all, vs...)
	}
	return all, nil
}

func (v *Vector) check() error {
	switch {
	case v.Name == "":
		return fmt.Errorf("missing name")
	case v.Source == "":
		return fmt.Errorf("missing source")
	case v.Decision == "":
		return fmt.Errorf("missing decision")
	case !strings.HasPrefix(v.Decision, v.Package+"."):
		return fmt.Errorf("decision %q is not in package %q", v.Decision, v.Package)
	case len(v.Input) == 0:
		return fmt.Errorf("missing input")
	}
	n := 0
	if len(v.Want) > 0 {
		n++
	}
	if len(v.WantOneOf) > 0 {
		n++
	}
	if v.WantError != nil {
		n++
	}
	if n != 1 {
		return fmt.Errorf("need exactly one of want, wantOneOf, wantError; have %d", n)
	}
	return nil
}
