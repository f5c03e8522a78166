package history_test

import (
	"fmt"

	"github.com/kubesem/kubesem/history"
)

// Revisions are ordered as the controllers order them: by revision number,
// then creation time, then name.
func ExampleSort() {
	revs := []history.ControllerRevision{{Revision: 3}, {Revision: 1}, {Revision: 2}, {Revision: 1}}
	revs[0].Name, revs[1].Name, revs[2].Name, revs[3].Name = "web-c", "web-b", "web-x", "web-a"
	history.Sort(revs)
	for _, r := range revs {
		fmt.Println(r.Revision, r.Name)
	}
	// Output:
	// 1 web-a
	// 1 web-b
	// 2 web-x
	// 3 web-c
}
