package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
)

// timeline is a simulation drawn as a standalone SVG chart: one column per
// step, stacking a count for each series (pods per revision and
// availability, slot outcomes), with the step's label and note as a tooltip.
type timeline struct {
	title  string
	series []series
	cols   []column
}

type series struct {
	name, color string
}

type column struct {
	label string // under the column (time, slot)
	note  string // tooltip (actions, Job name)
	stack []int  // one count per series, bottom up
}

func (t *timeline) add(label, note string, stack ...int) {
	if t != nil {
		t.cols = append(t.cols, column{label, note, stack})
	}
}

// writeFile writes t to path; an empty path writes nothing.
func (t *timeline) writeFile(path string) error {
	if t == nil || path == "" {
		return nil
	}
	var b bytes.Buffer
	t.write(&b)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--svg: %v", err)
	}
	return nil
}

// write renders t: title and legend on top, columns of stacked cells, the
// labels of every few columns below.
func (t *timeline) write(w io.Writer) {
	const (
		left, top, bottom = 40, 56, 40
		cellMax, cellMin  = 14, 2
	)
	cols, per := t.grouped(600)
	n := max(len(cols), 1)
	colW := max(4, min(24, 960/n))
	high := 1
	for _, c := range cols {
		sum := 0
		for _, v := range c.stack {
			sum += max(v, 0)
		}
		high = max(high, sum)
	}
	cell := max(cellMin, min(cellMax, 320/high))
	width := max(left+n*colW+20, 620)
	height := top + high*cell + bottom
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(w, `<text x="%d" y="16" font-size="13" font-weight="bold">%s</text>`+"\n", left, esc(t.title))
	x := left
	for _, s := range t.series {
		fmt.Fprintf(w, `<rect x="%d" y="26" width="10" height="10" fill="%s"/><text x="%d" y="35">%s</text>`+"\n", x, s.color, x+14, esc(s.name))
		x += 24 + 7*len(s.name)
	}
	base := top + high*cell
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>`+"\n", left, base, left+n*colW, base)
	fmt.Fprintf(w, `<text x="4" y="%d">%d</text><text x="4" y="%d">0</text>`+"\n", top+10, high, base)
	every := max(1, (40+colW-1)/colW) // a label at least every 40 pixels
	for i, c := range cols {
		x := left + i*colW
		first, last := i*per, min((i+1)*per, len(t.cols))-1
		fmt.Fprintf(w, `<g class="step" data-first="%d" data-last="%d"><title>%s</title>`, first, last, esc(c.label+" "+c.note))
		y := base
		for k, v := range c.stack {
			if v <= 0 || k >= len(t.series) {
				continue
			}
			y -= v * cell
			fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x+1, y, colW-2, v*cell, t.series[k].color)
		}
		if i%every == 0 {
			fmt.Fprintf(w, `<text x="%d" y="%d" transform="rotate(45 %d %d)">%s</text>`, x, base+12, x, base+12, esc(c.label))
		}
		fmt.Fprint(w, "</g>\n")
	}
	fmt.Fprint(w, "</svg>\n")
}

// grouped returns the columns, merged per consecutive runs of per columns
// (counts added) so that at most limit remain.
func (t *timeline) grouped(limit int) ([]column, int) {
	per := max(1, (len(t.cols)+limit-1)/limit)
	if per == 1 {
		return t.cols, 1
	}
	var out []column
	for i := 0; i < len(t.cols); i += per {
		end := min(i+per, len(t.cols))
		g := column{label: t.cols[i].label, note: fmt.Sprintf("… %s (%d steps)", t.cols[end-1].label, end-i), stack: make([]int, len(t.series))}
		for _, c := range t.cols[i:end] {
			for k, v := range c.stack {
				if k < len(g.stack) {
					g.stack[k] += v
				}
			}
		}
		out = append(out, g)
	}
	return out, per
}

func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
