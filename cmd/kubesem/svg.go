package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// timeline is a simulation drawn as a standalone SVG chart: one column per
// step, stacking a count for each series (pods per revision and
// availability, slot outcomes), with the step's label and note as a tooltip.
type timeline struct {
	// title names what was simulated (the scenario, the flags); subtitle,
	// optional, says more (the scenario's objects, start and end). Both
	// wrap to the chart's width.
	title, subtitle string
	series          []series
	cols            []column
}

type series struct {
	name, color string
}

type column struct {
	label string // under the column (time, slot)
	note  string // tooltip (actions, Job name)
	stack []int  // one count per series, bottom up
}

// header prints a command's header (what it simulates) to out and makes
// it t's title: "simulate CMD: " and the header's first line, its second
// line, if any, the subtitle.
func (t *timeline) header(out io.Writer, cmd, header string) {
	io.WriteString(out, header)
	if t == nil {
		return
	}
	lines := strings.Split(strings.TrimRight(header, "\n"), "\n")
	t.title = "simulate " + cmd + ": " + lines[0]
	if len(lines) > 1 {
		t.subtitle = lines[1]
	}
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

// The chart's text: sizes in pixels.
const (
	svgFont      = 11 // labels, legend, subtitle
	svgTitleFont = 13 // the title, bold
	svgPad       = 8  // margin around everything
)

// textWidth estimates the width in pixels of s drawn in a sans-serif font
// of size px (bold: 10 % wider). There are no font metrics in a standalone
// SVG: the estimate counts characters by class, each at about its width in
// DejaVu Sans and Helvetica, rounded up (narrow punctuation and i, l 0.35
// em; f, r, t, I and brackets 0.45 em; digits 0.65 em; other lower-case
// letters 0.62 em; m and w, M and W 1 em; other capitals 0.75 em; anything
// else 0.85 em), so that labels laid out with it neither overlap nor leave
// the view box.
func textWidth(s string, size float64, bold bool) float64 {
	em := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("ijl.,:;'|! ", r):
			em += 0.35
		case strings.ContainsRune("frtI()[]-/", r):
			em += 0.45
		case r >= '0' && r <= '9':
			em += 0.65
		case r == 'm' || r == 'w' || r == 'M' || r == 'W':
			em += 1
		case r >= 'a' && r <= 'z':
			em += 0.62
		case r >= 'A' && r <= 'Z':
			em += 0.75
		default:
			em += 0.85
		}
	}
	if bold {
		em *= 1.1
	}
	return math.Ceil(em * size)
}

// wrapText breaks s at spaces into lines no wider than width (a word wider
// than width is a line of its own).
func wrapText(s string, size float64, bold bool, width float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && textWidth(line+" "+word, size, bold) > width {
			lines = append(lines, line)
			line = ""
		}
		if line == "" {
			line = word
		} else {
			line += " " + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// write renders t: the title and subtitle, the legend, the columns of
// stacked cells with the count axis on the left, and the labels of every
// few columns below, all placed by their estimated widths (textWidth):
// the title and subtitle wrap, the legend wraps into rows, column labels
// are spaced so that none overlaps the next, and the view box grows to
// hold whatever is wider than the chart.
func (t *timeline) write(w io.Writer) {
	const cellMax, cellMin, chartMin = 14, 2, 28
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
	cell = max(cell, (chartMin+high-1)/high) // room for the two axis labels
	highLabel := strconv.Itoa(high)
	left := max(40, svgPad+int(textWidth(highLabel, svgFont, false))+6)

	// The column labels: one every `every` columns, each at least its
	// width and a gap from the next.
	labelW := 0.0
	for _, c := range cols {
		labelW = max(labelW, textWidth(c.label, svgFont, false))
	}
	every := max(1, int(math.Ceil((labelW+10)/float64(colW))))
	width := max(left+n*colW+svgPad+12, 620)
	for i := 0; i < len(cols); i += every {
		width = max(width, left+i*colW+int(textWidth(cols[i].label, svgFont, false))+svgPad)
	}
	// The title and subtitle wrap to the width; a word wider widens it.
	textMax := float64(width - 2*svgPad)
	title := wrapText(t.title, svgTitleFont, true, textMax)
	sub := wrapText(t.subtitle, svgFont, false, textMax)
	for _, l := range title {
		width = max(width, 2*svgPad+int(textWidth(l, svgTitleFont, true)))
	}
	for _, l := range sub {
		width = max(width, 2*svgPad+int(textWidth(l, svgFont, false)))
	}

	var head bytes.Buffer
	y := svgPad
	for _, l := range title {
		y += svgTitleFont + 3
		fmt.Fprintf(&head, `<text class="title" x="%d" y="%d" font-size="%d" font-weight="bold">%s</text>`+"\n", svgPad, y, svgTitleFont, esc(l))
	}
	for _, l := range sub {
		y += svgFont + 3
		fmt.Fprintf(&head, `<text class="subtitle" x="%d" y="%d">%s</text>`+"\n", svgPad, y, esc(l))
	}
	// The legend: a swatch and a name per series, in rows.
	y += 6 + svgFont
	x := svgPad
	for i, s := range t.series {
		itemW := 14 + int(textWidth(s.name, svgFont, false))
		if i > 0 && x+itemW > width-svgPad {
			x = svgPad
			y += svgFont + 6
		}
		fmt.Fprintf(&head, `<rect class="swatch" x="%d" y="%d" width="10" height="10" fill="%s"/><text class="legend" x="%d" y="%d">%s</text>`+"\n", x, y-9, s.color, x+14, y, esc(s.name))
		x += itemW + 16
	}
	top := y + 12
	base := top + high*cell
	height := base + 6 + svgFont + 4 + svgPad

	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="%d">`+"\n", width, height, width, height, svgFont)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	w.Write(head.Bytes())
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>`+"\n", left, base, left+n*colW, base)
	fmt.Fprintf(w, `<text class="axis" x="%d" y="%d" text-anchor="end">%s</text><text class="axis" x="%d" y="%d" text-anchor="end">0</text>`+"\n",
		left-6, top+svgFont-2, highLabel, left-6, base)
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
			fmt.Fprintf(w, `<text class="label" x="%d" y="%d">%s</text>`, x, base+6+svgFont, esc(c.label))
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
