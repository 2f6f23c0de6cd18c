# Figures of the ICLR 2021 OLS example (App. A.1; docs/reproduction.md), from
# results/iclr2021-ols/*.csv:
#   iclr2021_ols_data.png      training data, the true conditional distribution and the OLS model
#                              (means and 5-95% bands; the paper's Figs. 1 and 4)
#   iclr2021_ols_quantile.png  cumulative probability of the PIT values against the quantile level
#                              on the 50 validation points, and in the population (Fig. 5)
# Run from the repository root: gnuplot -e "results='results'" docs/figures/iclr2021_ols.gp
if (!exists("results")) results = 'results'
dir = results.'/iclr2021-ols/'
set datafile separator ','
set datafile columnheaders

stats dir.'experiment.csv' using 'p_bootstrap' nooutput
p = STATS_max
stats dir.'experiment.csv' using 'slope' nooutput
slope = STATS_max
stats dir.'experiment.csv' using 'intercept' nooutput
intercept = STATS_max
stats dir.'experiment.csv' using 'sigma' nooutput
sigma = STATS_max

set terminal pngcairo size 800,560 font 'Sans,10'
set output 'docs/figures/iclr2021_ols_data.png'
set title sprintf("ICLR 2021 App. A.1: Y = sin(πX) + |1+X|·ε with ε ∼ N(0, 0.15^2)\nOLS model fitted on the training data: N(%.3f + %.3f x, %.3f^2)", intercept, slope, sigma)
set xlabel 'x'
set ylabel 'y'
set key top left
set xrange [-1:1]
set style fill transparent solid 0.2 noborder
plot dir.'ols_curves.csv' using 'x':'true_lower':'true_upper' with filledcurves lc rgb '#2ca02c' title 'true 5-95%', \
     dir.'ols_curves.csv' using 'x':'true_mean' with lines lw 2 lc rgb '#2ca02c' title 'true mean sin(πx)', \
     dir.'ols_curves.csv' using 'x':'model_lower':'model_upper' with filledcurves lc rgb '#1f77b4' title 'model 5-95%', \
     dir.'ols_curves.csv' using 'x':'model_mean' with lines lw 2 lc rgb '#1f77b4' title 'model mean', \
     dir.'ols_train.csv' using 'x':'y' with points pt 7 ps 0.6 lc rgb '#ff7f0e' title 'training data (100)', \
     dir.'ols_validation.csv' using 'x':'y' with points pt 6 ps 0.8 lc rgb '#d62728' title 'validation data (50)'

set terminal pngcairo size 560,520 font 'Sans,10'
set output 'docs/figures/iclr2021_ols_quantile.png'
set title sprintf("Quantile calibration of the OLS model\nbootstrap test (10^5 resamples) on the validation data: p = %.4f", p)
set xlabel 'quantile level τ'
set ylabel 'cumulative probability'
set xrange [0:1]
set yrange [0:1]
set key top left
set size ratio -1
plot dir.'quantile_curve.csv' using 'tau':'validation' with steps lw 2 lc rgb '#ff7f0e' title 'validation data (n = 50)', \
     dir.'quantile_curve.csv' using 'tau':'population' with lines lw 2 dt 2 lc rgb '#1f77b4' title 'population (10^6 draws)', \
     x with lines lc rgb '#2ca02c' title 'ideal'
