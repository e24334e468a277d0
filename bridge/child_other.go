//go:build !linux

package main

import "os/exec"

// configureChild does nothing where the kernel has no parent-death signal: the bridge kills the plugin when it
// stops.
func configureChild(*exec.Cmd) {}
