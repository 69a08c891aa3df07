package envfile_test

import (
	"fmt"
	"strings"

	"github.com/podconfig/podconfig/internal/envfile"
)

// A file in a volume defines two variables; fileKeyRef asks for one of them.
func ExampleParse() {
	content := `# written by the init container
DB_HOST='db.internal'
GREETING='hello
world' # a two-line value
`
	v, err := envfile.Parse(strings.NewReader(content), "/vol/config.env", "GREETING")
	fmt.Printf("%q %v\n", v, err)

	_, err = envfile.Parse(strings.NewReader("DB_HOST=db.internal\n"), "/vol/config.env", "DB_HOST")
	fmt.Println(err)
	// Output:
	// "hello\nworld" <nil>
	// invalid environment variable format at line 1: value must be enclosed in single quotes
}
