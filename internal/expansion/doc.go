// Package expansion expands $(VAR) references the way kubelet does for env values, command, args and subPathExpr.
package expansion
