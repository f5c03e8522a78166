package check

import "time"

// The liveness properties are decided on the graph of ticks: each state
// has at most one tick successor, so from every state the world left to
// itself follows one chain, which either closes a cycle (the world has
// settled: with instants read relative to now, a settled world repeats),
// stops (nothing is due), or was cut by the bounds. A state obliges a
// property (applies) to settle good: the chain must reach, within the
// window, a cycle whose every state is good.

// fate is where the chain from a state ends.
type fate struct {
	cycle int32 // the cycle (index into cycles) or terminal state reached; -1 cut
	dist  int64 // the time from the state to the cycle
}

// fates computes the fate of every state.
func (e *explorer) fates() ([]fate, [][]int32) {
	n := len(e.nodes)
	out := make([]fate, n)
	mark := make([]uint8, n) // 0 new, 1 on the path, 2 done
	var cycles [][]int32
	var path []int32
	for i := range n {
		if mark[i] != 0 {
			continue
		}
		path = path[:0]
		j := int32(i)
		var end fate
		for {
			if mark[j] == 2 {
				end = out[j]
				break
			}
			if mark[j] == 1 {
				// A cycle: from j to the end of the path.
				k := len(path) - 1
				for path[k] != j {
					k--
				}
				c := int32(len(cycles))
				cycles = append(cycles, append([]int32(nil), path[k:]...))
				for _, x := range path[k:] {
					out[x] = fate{cycle: c}
					mark[x] = 2
				}
				path = path[:k]
				end = fate{cycle: c}
				break
			}
			mark[j] = 1
			path = append(path, j)
			t := e.nodes[j].tick
			if t == tickNone {
				// Nothing is due: the state is final, a cycle of one.
				c := int32(len(cycles))
				cycles = append(cycles, []int32{j})
				out[j] = fate{cycle: c}
				mark[j] = 2
				path = path[:len(path)-1]
				end = out[j]
				break
			}
			if t < 0 {
				out[j] = fate{cycle: -1}
				mark[j] = 2
				path = path[:len(path)-1]
				end = out[j]
				break
			}
			j = t
		}
		for k := len(path) - 1; k >= 0; k-- {
			x := path[k]
			if end.cycle >= 0 {
				end.dist += e.nodes[x].dt
			}
			out[x] = end
			mark[x] = 2
		}
	}
	return out, cycles
}

// liveness finds, for each liveness property, its shortest violation: a
// state that obliges it whose chain settles in a cycle not all good, or
// that does not settle good within the window.
func (e *explorer) liveness() {
	if len(e.liveIdx) == 0 {
		return
	}
	fs, cycles := e.fates()
	window := int64(e.o.window())
	for bit, pi := range e.liveIdx {
		good := make([]bool, len(cycles))
		for c, members := range cycles {
			good[c] = true
			for _, x := range members {
				if e.nodes[x].good&(1<<bit) == 0 {
					good[c] = false
					break
				}
			}
		}
		best := int32(-1)
		msg := ""
		for i := range e.nodes {
			n := &e.nodes[i]
			if n.applies&(1<<bit) == 0 {
				continue
			}
			e.checked[pi]++
			f := fs[i]
			var m string
			switch {
			case f.cycle < 0:
				m = "left alone, the world does not settle where it holds within the bound (the " + durationText(e.o.window()) + " window)"
			case !good[f.cycle] && f.dist == 0:
				m = "left alone, the world stays where it does not hold, for ever"
			case !good[f.cycle]:
				m = "left alone, the world settles " + durationText(time.Duration(f.dist)) + " later where it does not hold, for ever"
			case f.dist > window:
				m = "left alone, the world settles where it holds only " + durationText(time.Duration(f.dist)) + " later, past the " + durationText(e.o.window()) + " window"
			default:
				continue
			}
			if best < 0 || n.depth < e.nodes[best].depth {
				best, msg = int32(i), m
			}
		}
		if best >= 0 {
			e.viol[pi] = &violation{msg: msg, idx: best}
		}
	}
}

func durationText(d time.Duration) string {
	if d%time.Second == 0 {
		return d.String()
	}
	return d.Round(time.Millisecond).String()
}
