package pathelem_test

import (
	"fmt"

	"github.com/podconfig/podconfig/internal/pathelem"
)

// A hostile volume name is refused before it is joined to a host path.
func ExampleValidate() {
	fmt.Println(pathelem.Validate("volume name", "../../etc"))
	fmt.Printf("%q\n", pathelem.Validate("volume name", "data"))
	// Output:
	// invalid volume name "../../etc": must not contain '/'
	// ""
}
