package cronjob_test

import (
	"math/rand"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
)

func TestStressTmp(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var scheds [][]*cronjob.Schedule
	for _, z := range countZones {
		var row []*cronjob.Schedule
		for _, sp := range countSchedules {
			s, err := cronjob.ParseSchedule(sp, &z, cronjob.Options{})
			if err != nil {
				t.Fatal(err)
			}
			row = append(row, s)
		}
		scheds = append(scheds, row)
	}
	base := time.Date(2016, 5, 19, 10, 0, 0, 0, time.UTC).Unix()
	fails := 0
	for i := 0; i < 20000 && fails < 10; i++ {
		zi, si := r.Intn(len(countZones)), r.Intn(len(countSchedules))
		s := scheds[zi][si]
		after := time.Unix(base+r.Int63n(33*365*86400)-3*365*86400, 0)
		lens := []int64{3600, 10 * 86400, 400 * 86400, 3653 * 86400}
		l := r.Int63n(lens[r.Intn(4)])
		until := after.Add(time.Duration(l) * time.Second)
		if got, want := s.Count(after, until), s.PeriodCount(after, until); got != want {
			t.Errorf("Count(%q in %s, %v, %v) = %d; want %d", countSchedules[si], countZones[zi], after.UTC(), until.UTC(), got, want)
			fails++
		}
	}
}
