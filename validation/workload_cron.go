package validation

// A CronJob's schedule, as the API server parses it: robfig/cron v3's ParseStandard (five fields,
// minute hour day-of-month month day-of-week, or an @-descriptor), with its words for what it
// refuses.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	// The API server embeds the time zone database; so does this package, for the hosts that
	// have none.
	_ "time/tzdata"
)

// cronBounds is the range of one schedule field and, for months and days of the week, its names.
type cronBounds struct {
	min, max uint
	names    map[string]uint
}

// The five fields of a standard schedule, in order.
var cronFields = [5]cronBounds{
	{0, 59, nil}, // minute
	{0, 23, nil}, // hour
	{1, 31, nil}, // day of month
	{1, 12, map[string]uint{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}},
	{0, 6, map[string]uint{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}},
}

// errTZWithoutSpace is what the API server reports for a schedule that starts with TZ= or
// CRON_TZ= and has no space: the parser slices the spec at index -1, panics, and the API server
// turns the panic into this error.
var errTZWithoutSpace = errors.New("invalid schedule format: runtime error: slice bounds out of range [:-1]")

// cronScheduleError returns the error the API server's schedule parser gives spec, nil for a
// schedule it accepts: a TZ= or CRON_TZ= prefix naming a location the time zone database has,
// then an @-descriptor or five fields, each a comma-separated list of ranges.
func cronScheduleError(spec string) error {
	if len(spec) == 0 {
		return errors.New("empty spec string")
	}
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		space := strings.Index(spec, " ")
		if space < 0 {
			return errTZWithoutSpace
		}
		name := spec[strings.Index(spec, "=")+1 : space]
		if _, err := time.LoadLocation(name); err != nil {
			return fmt.Errorf("provided bad location %s: %v", name, err)
		}
		spec = strings.TrimSpace(spec[space:])
	}
	if strings.HasPrefix(spec, "@") {
		return cronDescriptorError(spec)
	}
	fields := strings.Fields(spec)
	if len(fields) != len(cronFields) {
		return fmt.Errorf("expected exactly %d fields, found %d: %s", len(cronFields), len(fields), fields)
	}
	for i, f := range fields {
		for _, expr := range strings.FieldsFunc(f, func(r rune) bool { return r == ',' }) {
			if err := cronRangeError(expr, cronFields[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// cronDescriptorError checks an @-descriptor: a named schedule or @every and a duration.
func cronDescriptorError(descriptor string) error {
	switch descriptor {
	case "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly":
		return nil
	}
	const every = "@every "
	if strings.HasPrefix(descriptor, every) {
		if _, err := time.ParseDuration(descriptor[len(every):]); err != nil {
			return fmt.Errorf("failed to parse duration %s: %s", descriptor, err)
		}
		return nil
	}
	return fmt.Errorf("unrecognized descriptor: %s", descriptor)
}

// cronRangeError checks one range of a field: "*" or "?", a number or name, or low-high, each
// optionally followed by /step. After a "*" the parser reads no bound, whatever follows its "-".
func cronRangeError(expr string, b cronBounds) error {
	rangeAndStep := strings.Split(expr, "/")
	lowHigh := strings.Split(rangeAndStep[0], "-")
	var start, end uint
	if lowHigh[0] == "*" || lowHigh[0] == "?" {
		start, end = b.min, b.max
	} else {
		var err error
		if start, err = cronNumber(lowHigh[0], b.names); err != nil {
			return err
		}
		switch len(lowHigh) {
		case 1:
			end = start
		case 2:
			if end, err = cronNumber(lowHigh[1], b.names); err != nil {
				return err
			}
		default:
			return fmt.Errorf("too many hyphens: %s", expr)
		}
	}
	step := uint(1)
	switch len(rangeAndStep) {
	case 1:
	case 2:
		var err error
		if step, err = cronNumber(rangeAndStep[1], nil); err != nil {
			return err
		}
		// "N/step" runs from N to the field's maximum.
		if len(lowHigh) == 1 {
			end = b.max
		}
	default:
		return fmt.Errorf("too many slashes: %s", expr)
	}
	switch {
	case start < b.min:
		return fmt.Errorf("beginning of range (%d) below minimum (%d): %s", start, b.min, expr)
	case end > b.max:
		return fmt.Errorf("end of range (%d) above maximum (%d): %s", end, b.max, expr)
	case start > end:
		return fmt.Errorf("beginning of range (%d) beyond end of range (%d): %s", start, end, expr)
	case step == 0:
		return fmt.Errorf("step of range should be a positive number: %s", expr)
	}
	return nil
}

// cronNumber is a field's name (case does not matter) or a number not below zero.
func cronNumber(s string, names map[string]uint) (uint, error) {
	if n, ok := names[strings.ToLower(s)]; ok {
		return n, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("failed to parse int from %s: %s", s, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("negative number (%d) not allowed: %s", n, s)
	}
	return uint(n), nil
}
