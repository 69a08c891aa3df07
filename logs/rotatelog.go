package logs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The names kubelet gives a container log's rotated copies: "<log>.<timestamp>" when rotated,
// "<log>.<timestamp>.gz" once compressed, "<log>.<timestamp>.tmp" while being compressed.
// The timestamps sort as the names do, so the oldest copy sorts first.
const (
	rotatedTimestampFormat = "20060102-150405"
	compressedSuffix       = ".gz"
	temporarySuffix        = ".tmp"
)

// errVanished marks a log file or directory that is not there (any more): the runtime or the
// pod's removal took it between two steps, which is not a failure of the rotation.
var errVanished = errors.New("log file vanished")

// rotateLog rotates the log named log in dir, in kubelet's order: it removes what an interrupted
// rotation left, the oldest rotated copies past MaxFiles-2, compresses the copies not yet
// compressed, then renames the log to its rotated name and has the runtime reopen it. An entry
// that is not a regular file is left alone and reported, and does not stop the rotation.
func (m *ContainerLogManager) rotateLog(ctx context.Context, dir *logDir, id, log string) error {
	names, refused, err := dir.rotated(log)
	if err != nil {
		return fmt.Errorf("failed to list all log files with pattern %q: %w", dir.join(log)+".*", err)
	}
	var errs []error
	for _, name := range refused {
		errs = append(errs, fmt.Errorf("%s: %w", dir.join(name), ErrNotRegularFile))
	}
	err = m.rotateRegular(ctx, dir, id, log, names)
	return errors.Join(append(errs, err)...)
}

// rotateRegular is rotateLog on the regular files listed.
func (m *ContainerLogManager) rotateRegular(ctx context.Context, dir *logDir, id, log string, names []string) error {
	inUse, err := cleanupUnusedLogs(dir, names)
	if err != nil {
		return fmt.Errorf("failed to cleanup logs: %w", err)
	}
	kept, err := removeExcessLogs(dir, inUse, m.opts.MaxFiles)
	if err != nil {
		return fmt.Errorf("failed to remove excess logs: %w", err)
	}
	for _, name := range kept {
		if strings.HasSuffix(name, compressedSuffix) {
			continue
		}
		if err := dir.compress(name); err != nil && !errors.Is(err, errVanished) {
			return fmt.Errorf("failed to compress log %q: %w", dir.join(name), err)
		}
	}
	if err := m.rotateLatestLog(ctx, dir, id, log); err != nil {
		return fmt.Errorf("failed to rotate log %q: %w", dir.join(log), err)
	}
	return nil
}

// cleanupUnusedLogs removes the temporary files of compressions that did not finish and the
// uncompressed copies whose compressed copy exists (the compression ended before their removal),
// and returns the others.
func cleanupUnusedLogs(dir *logDir, names []string) ([]string, error) {
	inUse, unused := splitUnusedLogs(names)
	for _, name := range unused {
		if err := dir.remove(name); err != nil {
			return nil, fmt.Errorf("failed to remove unused log %q: %w", dir.join(name), err)
		}
	}
	return inUse, nil
}

// splitUnusedLogs sorts names into the copies in use and the leftovers of interrupted rotations.
func splitUnusedLogs(names []string) (inUse, unused []string) {
	for _, name := range names {
		if isUnusedLog(name, names) {
			unused = append(unused, name)
		} else {
			inUse = append(inUse, name)
		}
	}
	return inUse, unused
}

// isUnusedLog tells whether name is a temporary file, or an uncompressed copy also present
// compressed.
func isUnusedLog(name string, names []string) bool {
	switch {
	case strings.HasSuffix(name, temporarySuffix):
		return true
	case strings.HasSuffix(name, compressedSuffix):
		return false
	}
	return slices.Contains(names, name+compressedSuffix)
}

// removeExcessLogs removes the oldest copies until maxFiles-2 are left: with the current log and
// the copy about to be made, the container then has maxFiles. It removes the oldest first, so a
// reader following the copies in order keeps going. It returns the copies left, oldest first.
func removeExcessLogs(dir *logDir, names []string, maxFiles int) ([]string, error) {
	names = slices.Sorted(slices.Values(names))
	excess := max(len(names)-max(maxFiles-2, 0), 0)
	for _, name := range names[:excess] {
		if err := dir.remove(name); err != nil {
			return nil, fmt.Errorf("failed to remove old log %q: %w", dir.join(name), err)
		}
	}
	return names[excess:], nil
}

// rotateLatestLog renames the current log to its rotated name, uncompressed so that the runtime
// can finish writing to it and readers finish reading it, and has the runtime reopen the log at
// its path. If the runtime cannot, the log gets its name back, to be rotated on a later pass.
// A log that vanished before the rename is not rotated.
func (m *ContainerLogManager) rotateLatestLog(ctx context.Context, dir *logDir, id, log string) error {
	rotated := log + "." + m.opts.Clock.Now().Format(rotatedTimestampFormat)
	if err := dir.rename(log, rotated); err != nil {
		if errors.Is(err, errVanished) {
			return nil
		}
		return fmt.Errorf("failed to rotate log %q to %q: %w", dir.join(log), dir.join(rotated), err)
	}
	if err := m.reopen(ctx, id); err != nil {
		err = fmt.Errorf("failed to reopen container log %q: %w", id, err)
		if backErr := dir.rename(rotated, log); backErr != nil {
			return errors.Join(err, fmt.Errorf("failed to rename rotated log %q back to %q: %w", dir.join(rotated), dir.join(log), backErr))
		}
		return err
	}
	return nil
}
