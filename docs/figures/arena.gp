# The arena's figure (docs/tests.md, "The arena"), from the CSV files that `repro-arena --out
# RESULTS/arena` writes:  gnuplot -e "results='results'" docs/figures/arena.gp  (make figures).
# Writes docs/figures/arena.png: each test's rejection rate at α = 0.05 with its Wilson 95 % interval,
# for each design, at n = 1000; the binary model above, the 10-class model (binary tests on the
# top-label event) below.
if (!exists("results")) results = 'results'
summary = results . '/arena/arena_summary.csv'
set datafile separator ','
set terminal pngcairo noenhanced size 1400,1000 font 'sans,11' linewidth 1.2
set output 'docs/figures/arena.png'
set multiplot layout 2,1
set grid ytics lc rgb '#dddddd'
set yrange [0:1.05]
set ylabel 'rejection rate at α = 0.05'
set xtics rotate by -30 scale 0 font 'sans,10'
set key outside right top vertical
# The rows of one family, design and n at α = 0.05, in the tests' order.
rows(family, design) = sprintf("< awk -F, '$1 == \"%s\" && $2 == \"%s\" && $3 == \"1000\" && $5 == \"0.05\"' %s", family, design, summary)
designs = 'calibrated overconfident underconfident prior-shift local feature'
colours = '#444444 #d95f02 #1b6ca8 #5a9e3a #a6368c #c9a100'
set xrange [-0.6:16.6]
do for [family in 'binary categorical'] {
    set title (family eq 'binary' ? 'binary predictions, n = 1000 (200 data sets per design)' : \
               '10-class predictions, n = 1000 (binary tests on the top-label event)')
    plot 0.05 with lines dt 2 lc rgb '#888888' title 'α', \
      rows(family, 'calibrated') using 0:(1/0):xtic(4) notitle, \
      for [d = 1:6] rows(family, word(designs, d)) using ($0 + (d - 3.5) * 0.13):9:10:11 \
        with yerrorbars pt 7 ps 0.8 lc rgb word(colours, d) title word(designs, d)
}
unset multiplot
