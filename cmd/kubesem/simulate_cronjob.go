package main

import "io"

func simulateCronJob(args []string, stdout io.Writer) error {
	return usagef("simulate cronjob: not built yet")
}
