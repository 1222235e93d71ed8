package fileio

import "syscall"

const noreserve = syscall.MAP_NORESERVE
