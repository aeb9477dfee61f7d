//go:build js && wasm

package main

import "github.com/dsplayground/dsplay/examples"

// exampleManifests are offered in the editor's menu; the first is applied on
// load. They are the files under examples/manifests, shared with the scenarios.
var exampleManifests = examples.Manifests()
