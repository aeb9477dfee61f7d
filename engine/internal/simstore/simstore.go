// Package simstore hands the store of an engine.Simulation to the engine
// packages that need it (engine/scenario's expect checks and commands,
// tests under engine/). It is internal so that the shells (wasm/, site/,
// cmd/) cannot import it: they read views and scenes, never the store.
//
// It cannot import engine (engine imports it), so the accessor is a
// function variable that engine sets in its init.
package simstore

import "github.com/dsplayground/dsplay/engine/cluster"

// of is set by package engine's init.
var of func(sim any) *cluster.Cluster

// Register sets the accessor. Package engine calls it once, in its init.
func Register(f func(sim any) *cluster.Cluster) { of = f }

// Cluster returns the store of sim, an *engine.Simulation: read it
// freely, write through the Simulation's methods. It panics when sim is
// not an *engine.Simulation.
func Cluster(sim any) *cluster.Cluster { return of(sim) }
