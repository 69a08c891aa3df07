// Package unixmode converts between Go's fs.FileMode and the mode bits of stat(2) and chmod(2),
// as the os package does, for the backends that make system calls without an os.File.
package unixmode
