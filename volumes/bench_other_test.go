//go:build !linux

package volumes

import "errors"

func openBenchFS(string) (FS, error) { return nil, errors.New("the Linux FS needs Linux") }
