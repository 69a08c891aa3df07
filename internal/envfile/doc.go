// Package envfile reads one variable from an env file with kubelet's strict single-quote parser (EnvFiles, fileKeyRef).
package envfile
