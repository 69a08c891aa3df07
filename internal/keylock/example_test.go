package keylock_test

import (
	"fmt"

	"github.com/podconfig/podconfig/internal/keylock"
)

// Calls for the same pod take turns; calls for other pods rarely wait.
func ExampleSet_For() {
	var locks keylock.Set
	mu := locks.For("pod-uid-1")
	mu.Lock()
	defer mu.Unlock()
	fmt.Println(locks.For("pod-uid-1") == mu)
	// Output: true
}
