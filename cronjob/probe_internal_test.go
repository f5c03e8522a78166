package cronjob

import (
	"archive/zip"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

func allZones(t *testing.T) []string {
	r, err := zip.OpenReader(filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for _, f := range r.File {
		if !strings.HasSuffix(f.Name, "/") {
			if _, err := time.LoadLocation(f.Name); err == nil {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

type res struct {
	d    time.Duration
	what string
	m    meter
}

func TestProbeSweep(t *testing.T) {
	zones := allZones(t)
	var all []res
	for _, nowY := range []int{2024, 9999} {
		now := time.Date(nowY, 11, 4, 5, 0, 0, 0, time.UTC)
		for _, created := range []time.Time{{}, time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC)} {
			for _, spec := range []string{"*/30 * * * *", "0 3 * * *", "0 0 * * 0"} {
				for _, z := range zones {
					tz := z
					cj := &CronJob{}
					cj.Name, cj.Namespace = "c", "d"
					cj.Spec.Schedule, cj.Spec.TimeZone, cj.CreationTimestamp = spec, &tz, created
					s, _ := ParseSchedule(spec, &tz, Options{})
					var m meter
					st := time.Now()
					_, err := mostRecent(cj, s, now, WithDeadline, &m)
					d := time.Since(st)
					_ = err
					all = append(all, res{d, z + " " + spec + " " + created.String() + " " + now.String(), m})
				}
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].d > all[j].d })
	for _, r := range all[:15] {
		t.Log(r.d, r.what, r.m)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].m.walks+all[i].m.stretch > all[j].m.walks+all[j].m.stretch })
	for _, r := range all[:5] {
		t.Log(r.d, r.what, r.m)
	}
}
