package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of the simulate tests")

// goldenCase is one CLI run whose stdout is compared with
// testdata/<name>.golden.
type goldenCase struct {
	name string
	args []string
}

// runGoldens runs each case in parallel: exit 0 and stdout equal to its
// golden file.
func runGoldens(t *testing.T, cases []goldenCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runCLI(t, "", c.args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
			}
			checkGolden(t, c.name, c.args, out)
		})
	}
}

// checkGolden compares out with testdata/<name>.golden; with -update it
// rewrites the file first.
func checkGolden(t *testing.T, name string, args []string, out string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("%v output differs from %s:\n%s", args, path, out)
	}
}

// TestSimulateGolden compares the simulations' text with golden files;
// -update rewrites them (they are derived output, checked by reading).
func TestSimulateGolden(t *testing.T) {
	t.Parallel()
	cases := []goldenCase{
		{"rollout_default", []string{"simulate", "rollout", "--replicas", "10", "--ready-after", "2"}},
		{"rollout_scale_event", []string{"simulate", "rollout", "--replicas", "10", "--max-surge", "3", "--max-unavailable", "2", "--ready-after", "3", "--scale-at", "4", "--scale-to", "15"}},
		{"rollout_second_update", []string{"simulate", "rollout", "--replicas", "5", "--update-at", "2", "--ready-after", "2"}},
		{"rollout_recreate", []string{"simulate", "rollout", "--replicas", "4", "--strategy", "Recreate"}},
		{"rollout_min_ready", []string{"simulate", "rollout", "--replicas", "3", "--min-ready-seconds", "15", "--max-unavailable", "0"}},
		{"cronjob_allow", []string{"simulate", "cronjob", "--schedule", "*/15 * * * *", "--job-duration", "40m"}},
		{"cronjob_forbid", []string{"simulate", "cronjob", "--schedule", "*/15 * * * *", "--job-duration", "40m", "--concurrency", "Forbid"}},
		{"cronjob_replace", []string{"simulate", "cronjob", "--schedule", "*/15 * * * *", "--job-duration", "40m", "--concurrency", "Replace"}},
		{"cronjob_outage_deadline", []string{"simulate", "cronjob", "--schedule", "* * * * *", "--from", "2026-01-01T08:25:00Z", "--window", "2h", "--job-duration", "30s",
			"--outage-start", "08:29", "--outage-end", "10:21", "--starting-deadline-seconds", "200"}},
		{"cronjob_outage_no_deadline", []string{"simulate", "cronjob", "--schedule", "* * * * *", "--from", "2026-01-01T08:25:00Z", "--window", "2h", "--job-duration", "30s",
			"--outage-start", "08:29", "--outage-end", "10:21"}},
		{"cronjob_outage_refuse", []string{"simulate", "cronjob", "--schedule", "* * * * *", "--from", "2026-01-01T08:25:00Z", "--window", "2h", "--job-duration", "30s",
			"--outage-start", "08:29", "--outage-end", "10:21", "--refuse-too-many-missed"}},
		{"cronjob_time_zone_dst", []string{"simulate", "cronjob", "--schedule", "30 2 * * *", "--time-zone", "America/New_York", "--from", "2026-03-06T00:00:00Z", "--window", "72h", "--job-duration", "5m"}},
	}
	runGoldens(t, cases)
}

func TestSimulateBadFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"simulate", "rollout", "--max-surge", "abc"}, "--max-surge"},
		{[]string{"simulate", "rollout", "--max-unavailable", "x%"}, "--max-unavailable"},
		{[]string{"simulate", "rollout", "--replicas", "-1"}, "--replicas"},
		{[]string{"simulate", "rollout", "--strategy", "Blue"}, "--strategy"},
		{[]string{"simulate", "rollout", "--ready-after", "-2"}, "--ready-after"},
		{[]string{"simulate", "rollout", "--max-unavailable", "150%"}, "maxUnavailable"},
		{[]string{"simulate", "rollout", "--bogus"}, "bogus"},
		{[]string{"simulate", "nothing"}, "nothing"},
		{[]string{"simulate", "cronjob", "--schedule", "61 * * * *"}, "spec.schedule"},
		{[]string{"simulate", "cronjob", "--time-zone", "Mars/Olympus"}, "spec.timeZone"},
		{[]string{"simulate", "cronjob", "--concurrency", "Sometimes"}, "--concurrency"},
		{[]string{"simulate", "cronjob", "--from", "yesterday"}, "--from"},
		{[]string{"simulate", "cronjob", "--outage-start", "10:00"}, "--outage-end"},
		{[]string{"simulate", "cronjob", "--outage-start", "10:00", "--outage-end", "09:00"}, "--outage-end"},
		{[]string{"simulate", "cronjob", "--starting-deadline-seconds", "-5"}, "--starting-deadline-seconds"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.wantErr) {
			t.Errorf("%v = exit %d, %q; want exit 2 and one line naming %q", c.args, code, stderr, c.wantErr)
		}
	}
}

// TestSimulateCronJobLimits: a window beyond the Job limit says so
// instead of stopping silently; a Job that Forbid holds back shows when it
// really starts; long runs of identical lines are collapsed.
func TestSimulateCronJobLimits(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, "", "simulate", "cronjob", "--schedule", "* * * * *", "--window", "200h")
	if code != 0 || !strings.Contains(out, "stopped after 2000 Jobs") || !strings.Contains(out, "S×2000") {
		t.Errorf("200h of every-minute slots = %d:\n%s", code, tail(out, 400))
	}
	code, out, _ = runCLI(t, "", "simulate", "cronjob", "--schedule", "*/5 * * * *", "--concurrency", "Forbid", "--job-duration", "12m", "--window", "1h")
	if code != 0 || !strings.Contains(out, "2026-01-01T08:17:00Z  Started     report-29454255 for 08:15 (2m0.1s late)") {
		t.Errorf("Forbid with 12m Jobs = %d; want the 08:15 Job started at 08:17:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "simulate", "cronjob", "--schedule", "* * * * *", "--from", "2026-01-01T08:25:00Z", "--window", "2h", "--outage-start", "08:29", "--outage-end", "10:21", "--refuse-too-many-missed")
	if code != 0 || !strings.Contains(out, "TooManyMissedTimes ×5 (until 2026-01-01T10:25:00Z)") {
		t.Errorf("outage = %d; want one collapsed line for 5 refusals:\n%s", code, out)
	}
}

// TestSimulateCronJobReplace: Replace deletes the running Job, the Job
// controller releases its orphaned pod's tracking finalizer, and the next
// Job starts at the same instant; the simulation ends (it once ran the
// instant of the first Replace forever).
func TestSimulateCronJobReplace(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "", "simulate", "cronjob", "--schedule", "*/15 * * * *", "--job-duration", "40m", "--concurrency", "Replace")
	if code != 0 || !strings.Contains(out, "12 Jobs: 1 started, 11 replacing running ones") {
		t.Errorf("Replace = exit %d, %q:\n%s", code, stderr, out)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
