# Figure of the ICLR 2021 Friedman 1 experiment (section 5.2 / App. A.3; docs/reproduction.md), from
# results/iclr2021-friedman/summary.csv:
#   iclr2021_friedman.png  MSE, NLL, pinball loss, SKCE (unbiased, biased) and the bootstrap p-value
#                          along training; bands: range of the ten networks, lines: their mean
#                          (green train, blue test) and the ensemble (orange train, purple test)
# Run from the repository root: gnuplot -e "results='results'" docs/figures/iclr2021_friedman.gp
if (!exists("results")) results = 'results'
file = results.'/iclr2021-friedman/summary.csv'
set datafile separator ','
set datafile columnheaders
set terminal pngcairo size 1200,760 font 'Sans,9'
set output 'docs/figures/iclr2021_friedman.png'
set multiplot layout 2,3 title "ICLR 2021 Friedman 1: ten 10-200-50-1 networks (bands: range, lines: mean) and their ensemble\ngreen/orange: training set (100), blue/purple: test set (50)" font 'Sans,12'
set xlabel 'training iteration'
set xrange [0:5000]
set xtics 1000
set grid lc rgb '#dddddd'
set style fill transparent solid 0.25 noborder
on(set, value) = (strcol("set") eq set) ? value : NaN
measures = 'mse nll pinball skce_unbiased skce_biased p_value'
titles = '"MSE" "NLL" "pinball loss" "SKCE (unbiased)" "SKCE (biased)" "p-value (bootstrap)"'
# A symmetric log axis for the NLL, which is negative on the training set and huge on the test set.
symlog(y) = sgn(y) * log10(1 + abs(y))
symexp(y) = sgn(y) * (10**abs(y) - 1)
do for [k=1:6] {
  m = word(measures, k)
  set title word(titles, k)
  unset logscale y
  set format y '%g'
  unset nonlinear y
  set yrange [*:*]
  if (k == 1 || k == 3 || k == 5) { set logscale y; set format y '10^{%L}' }
  if (k == 2) { set nonlinear y via symlog(y) inverse symexp(y); set ytics (-10, 0, 10, 100, '10^4' 1e4, '10^6' 1e6, '10^8' 1e8, '10^{10}' 1e10, '10^{12}' 1e12); set format y '%g' } else { set ytics autofreq }
  if (k == 6) { set yrange [0:1] }
  if (k == 1) { set key top right } else { unset key }
  plot file using 'iteration':(on("train", column(m.'_min'))):(on("train", column(m.'_max'))) with filledcurves lc rgb '#2ca02c' notitle, \
       file using 'iteration':(on("test", column(m.'_min'))):(on("test", column(m.'_max'))) with filledcurves lc rgb '#1f77b4' notitle, \
       file using 'iteration':(on("train", column(m.'_mean'))) with lines lw 2 lc rgb '#2ca02c' title 'networks, train', \
       file using 'iteration':(on("test", column(m.'_mean'))) with lines lw 2 lc rgb '#1f77b4' title 'networks, test', \
       file using 'iteration':(on("train", column(m.'_ensemble'))) with lines lw 2 lc rgb '#ff7f0e' title 'ensemble, train', \
       file using 'iteration':(on("test", column(m.'_ensemble'))) with lines lw 2 lc rgb '#9467bd' title 'ensemble, test'
}
unset multiplot
