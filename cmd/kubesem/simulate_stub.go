package main

import "io"

func simulateRollout(args []string, stdout io.Writer) error {
	return usagef("simulate rollout: not built yet")
}

func simulateCronJob(args []string, stdout io.Writer) error {
	return usagef("simulate cronjob: not built yet")
}
