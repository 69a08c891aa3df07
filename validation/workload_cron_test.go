package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCronScheduleError(t *testing.T) {
	tests := []struct {
		name     string
		schedule string
		want     string
	}{
		{name: "five fields with steps are a schedule", schedule: "*/5 * * * *"},
		{name: "months and days of the week may be named, in any case", schedule: "0 0 * JAN-mar Mon"},
		{name: "the descriptors are schedules", schedule: "@midnight"},
		{name: "@every takes a duration", schedule: "@every 1h30m"},
		{name: "a time zone prefix is parsed (validateSchedule refuses it)", schedule: "TZ=UTC 0 0 * * *"},
		{name: "after a star the parser reads no bound", schedule: "*-99 * * * *"},
		{name: "an empty range is skipped", schedule: ", * * * *"},
		{name: "an empty schedule is refused", schedule: "", want: "empty spec string"},
		{name: "four fields are refused", schedule: "* * * *", want: "expected exactly 5 fields, found 4: [* * * *]"},
		{name: "a descriptor after a space is a field", schedule: " @daily", want: "expected exactly 5 fields, found 1: [@daily]"},
		{name: "an unknown descriptor is refused", schedule: "@fortnightly", want: "unrecognized descriptor: @fortnightly"},
		{name: "@every needs a duration", schedule: "@every soon", want: `failed to parse duration @every soon: time: invalid duration "soon"`},
		{name: "a minute above 59 is refused", schedule: "60 * * * *", want: "end of range (60) above maximum (59): 60"},
		{name: "a day of month below 1 is refused", schedule: "* * 0 * *", want: "beginning of range (0) below minimum (1): 0"},
		{name: "a day of the week above 6 is refused", schedule: "* * * * 7", want: "end of range (7) above maximum (6): 7"},
		{name: "a range runs upwards", schedule: "5-1 * * * *", want: "beginning of range (5) beyond end of range (1): 5-1"},
		{name: "a step is above zero", schedule: "*/0 * * * *", want: "step of range should be a positive number: */0"},
		{name: "a negative step is refused", schedule: "*/-1 * * * *", want: "negative number (-1) not allowed: -1"},
		{name: "a range has at most one hyphen", schedule: "1-2-3 * * * *", want: "too many hyphens: 1-2-3"},
		{name: "a range has at most one step", schedule: "1/2/3 * * * *", want: "too many slashes: 1/2/3"},
		{name: "a field that is not a number is refused", schedule: "x * * * *", want: `failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax`},
		{name: "only the first bad field is reported", schedule: "99 99 * * *", want: "end of range (99) above maximum (59): 99"},
		{name: "an unknown time zone prefix is refused", schedule: "CRON_TZ=Mars/Olympus 0 0 * * *", want: "provided bad location Mars/Olympus: unknown time zone Mars/Olympus"},
		{
			name:     "a time zone prefix without a space fails the way the API server's parser panics",
			schedule: "TZ=UTC",
			want:     "invalid schedule format: runtime error: slice bounds out of range [:-1]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := cronScheduleError(tt.schedule)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tt.want)
		})
	}
}
