// Package terminal makes text from untrusted input safe to print for a person.
package terminal
