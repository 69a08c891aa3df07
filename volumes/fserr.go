package volumes

import (
	"errors"
	"io/fs"
)

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func isExist(err error) bool { return errors.Is(err, fs.ErrExist) }
