package main

import (
	"os/exec"
	"syscall"
)

// configureChild makes the kernel kill the plugin when the bridge dies, even by SIGKILL, so that a plugin never
// outlives its bridge.
func configureChild(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
