# Fig. 1 of Gruber & Bach (TMLR 2025, §5.1; docs/reproduction.md), from results/gruber-bach/risk.csv:
#   gruber_bach_sim.png  the empirical risk (20) of h_sim(θ) against θ (log axis), mean ± sd over
#                        the replicates, with a vertical line at θ = 1 (h_sim = h* there)
# Run from the repository root: gnuplot -e "results='results'" docs/figures/gruber_bach_sim.gp
if (!exists("results")) results = 'results'
file = results.'/gruber-bach/risk.csv'
set datafile separator ','
set datafile columnheaders

set terminal pngcairo size 800,520 font 'Sans,10'
set output 'docs/figures/gruber_bach_sim.png'
set title "Gruber and Bach §5.1: n = 500, 5 classes, P ∼ Dir(0.04), f = softmax(0.3 log P)\nrisk (20) of h_{sim}(θ), mean ± sd over replicates"
set xlabel 'θ'
set ylabel 'Empirical risk'
set logscale x 2
set format x '2^{%L}'
set xrange [2**-5:2**5]
set key top left
set style fill transparent solid 0.25 noborder
set arrow from 1, graph 0 to 1, graph 1 nohead lc rgb '#d62728' lw 1.5
plot file using 'theta':(column('risk_mean') - column('risk_sd')):(column('risk_mean') + column('risk_sd')) \
       with filledcurves lc rgb '#1f77b4' title '± sd', \
     file using 'theta':'risk_mean' with lines lw 2 lc rgb '#1f77b4' title 'mean', \
     NaN with lines lc rgb '#d62728' lw 1.5 title 'θ = 1'
