package downward_test

import (
	"fmt"

	"github.com/podconfig/podconfig/internal/downward"
)

// A pod's labels as a downwardAPI file or environment variable shows them.
func ExampleFormatMap() {
	fmt.Println(downward.FormatMap(map[string]string{"tier": "web", "app": "shop"}))
	// Output:
	// app="shop"
	// tier="web"
}
