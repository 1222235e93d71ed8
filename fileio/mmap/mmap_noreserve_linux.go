package mmap

import "syscall"

const noreserve = syscall.MAP_NORESERVE
