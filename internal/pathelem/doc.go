// Package pathelem holds the one rule for names that become host path elements (pod UIDs,
// container and volume names): they must stay a single element, so no hostile name can reach
// outside the directory it is joined to.
package pathelem
