package expansion_test

import (
	"fmt"

	"github.com/podconfig/podconfig/internal/expansion"
)

// A container arg refers to two defined variables, escapes a third and names an undefined one.
func ExampleExpand() {
	mapping := expansion.MappingFuncFor(map[string]string{"POD_IP": "10.244.1.17", "PORT": "8080"})
	for _, arg := range []string{"--listen=$(POD_IP):$(PORT)", "$$(LITERAL)", "--undef=$(NOPE)"} {
		fmt.Println(expansion.Expand(arg, mapping))
	}
	// Output:
	// --listen=10.244.1.17:8080
	// $(LITERAL)
	// --undef=$(NOPE)
}

// subPathExpr expansion reports what it could not resolve.
func ExampleExpandStrict() {
	path, missing := expansion.ExpandStrict("$(POD_NAME)/$(NODE)/$(ZONE)", map[string]string{"POD_NAME": "web-0", "ZONE": ""})
	fmt.Printf("%q %q\n", path, missing)
	// Output:
	// "web-0//" ["NODE" "ZONE"]
}
