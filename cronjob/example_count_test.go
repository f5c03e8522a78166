package cronjob_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/cronjob"
)

// How many start times an every-Friday-and-every-13th schedule has in 2026
// after January 1st, up to and including 2027-01-01 (a Friday): counted in
// O(months), not by walking them.
func ExampleSchedule_Count() {
	utc := "UTC"
	s, _ := cronjob.ParseSchedule("0 0 13 * 5", &utc, cronjob.Options{})
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(s.Count(from, to))
	// Output: 62
}
