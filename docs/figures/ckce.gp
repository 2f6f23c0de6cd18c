# Figures of the CKCE paper's reproduction (docs/reproduction.md), from the CSV files that
# `repro-ckce --out RESULTS/ckce` writes:  gnuplot -e "results='results'" docs/figures/ckce.gp
# (make figures-ckce). Writes docs/figures/ckce-{toy,reliability,comparison,shift}.png.
if (!exists("results")) results = 'results'
dir = results . '/ckce/'
out = 'docs/figures/'
set datafile separator ','
set terminal pngcairo size 1200,800 font 'sans,11' linewidth 1.5
set grid lc rgb '#dddddd'
set style data linespoints
metric_colour(m) = m eq 'ckce' ? '#1b6ca8' : m eq 'jkce' ? '#d95f02' : '#5a9e3a'
# The rows of a CSV file whose column `col` equals `key` (gnuplot breaks a line at filtered points).
rows(file, col, key) = sprintf("< awk -F, '$%d == \"%s\"' %s", col, key, file)
rows3(file, a, b, c) = sprintf("< awk -F, '$2 == \"%s\" && $3 == \"%s\" && $4 == \"%s\"' %s", a, b, c, file)
value_of(file, key, column) = real(system(sprintf("awk -F, '$1 == \"%s\" { print $%d }' %s", key, column, file)))

# ---- App. A toy: estimators against the closed forms as P(X = 0) = p varies --------------------
set output out . 'ckce-toy.png'
set title "App. A toy: closed forms (lines) and estimates (mean ± sd over replicates, n = 10 000)"
set xlabel 'p = P(X = 0)'
set ylabel 'value'
set key right center
set xrange [0:1]
set yrange [0:0.42]
toy = dir . 'ckce-toy.csv'
plot \
  rows(toy, 2, 'ckce_small_lambda') using 1:3 with lines lc rgb '#1b6ca8' dt 2 title 'CKCE population (0.1)', \
  rows(toy, 2, 'ckce_small_lambda') using 1:4:5 with yerrorbars pt 7 lc rgb '#1b6ca8' title 'CKCE, λ = 10^{-6}', \
  rows(toy, 2, 'ckce_paper_lambda') using 1:4:5 with yerrorbars pt 5 lc rgb '#7fb3d9' title 'CKCE, λ = n^{-1/4} (paper)', \
  rows(toy, 2, 'ckce_paper_lambda') using 1:7 with lines lc rgb '#7fb3d9' dt 3 title 'CKCE, λ = n^{-1/4}, exact-frequency sample', \
  rows(toy, 2, 'jkce_unbiased') using 1:3 with lines lc rgb '#d95f02' dt 2 title 'JKCE population 0.1p²−0.04p+0.02', \
  rows(toy, 2, 'jkce_unbiased') using 1:4:5 with yerrorbars pt 9 lc rgb '#d95f02' title 'JKCE (unbiased)', \
  rows(toy, 2, 'ece') using 1:3 with lines lc rgb '#5a9e3a' dt 2 title 'ECE population 0.2+0.2p', \
  rows(toy, 2, 'ece') using 1:4:5 with yerrorbars pt 11 lc rgb '#5a9e3a' title 'ECE (3 bins, L1)'

# ---- Fig. 1: reliability diagram ---------------------------------------------------------------
set output out . 'ckce-reliability.png'
set terminal pngcairo size 900,800 font 'sans,11' linewidth 1.5
scores = dir . 'ckce-reliability-scores.csv'
rel = dir . 'ckce-reliability.csv'
set title "Fig. 1: reliability diagram (n = 1000, m = 2), with each model's CKCE"
set xlabel 'confidence in class 0 (bin mean)'
set ylabel 'frequency of class 0 (bin accuracy)'
set key top left
set xrange [0:1]
set yrange [0:1]
plot x with lines lc rgb '#999999' dt 2 title 'perfect calibration', \
  rows(rel, 1, 'true') using 6:7 pt 7 lc rgb '#1b6ca8' title sprintf('true model, CKCE = %.4f', value_of(scores, 'true', 2)), \
  rows(rel, 1, 'under') using 6:7 pt 5 lc rgb '#5a9e3a' title sprintf('underconfident (t = 2), CKCE = %.4f', value_of(scores, 'under', 2)), \
  rows(rel, 1, 'over') using 6:7 pt 9 lc rgb '#d95f02' title sprintf('overconfident (t = 1/2), CKCE = %.4f', value_of(scores, 'over', 2))

# ---- Fig. 2: calibrated vs miscalibrated -------------------------------------------------------
set output out . 'ckce-comparison.png'
set terminal pngcairo size 1200,900 font 'sans,11' linewidth 1.5
cmp = dir . 'ckce-comparison.csv'
set multiplot layout 2,2 title "Fig. 2: proportion of trials in which the calibrated model scores strictly lower (95% Wilson intervals; m = 10, Dir(0.1))"
set logscale x
set xrange [7:1500]
set yrange [-0.02:1.05]
set xlabel 'n (calibration set size)'
set ylabel 'proportion'
set key bottom right
do for [pair in "true:under true:over marginal:under marginal:over"] {
  c = pair[1:strstrt(pair, ':') - 1]
  m = pair[strstrt(pair, ':') + 1:]
  set title sprintf('%s vs %s', c, m)
  plot for [q in "ckce jkce ece"] rows3(cmp, c, m, q) using 1:8:9:10 with yerrorlines \
       lc rgb metric_colour(q) pt 7 title q
}
unset multiplot
unset logscale x

# ---- Fig. 4(a): covariate shift ----------------------------------------------------------------
set output out . 'ckce-shift.png'
set terminal pngcairo size 1300,560 font 'sans,11' linewidth 1.5
set multiplot layout 1,2 title "Fig. 4(a): covariate shift (n = 1000; mean ± sd over replicates)"
setup = dir . 'ckce-shift-setup.csv'
set title 'set-up: P(Y=1|x) = σ(x), model σ(5x), inputs N(α, 0.25²) on [-1, 1]'
set xlabel 'x'
set ylabel 'probability / density'
set xrange [-1:1]
set yrange [0:2.3]
set key top right
plot setup using 1:2 with lines lc rgb 'black' title 'P(Y=1|x) = σ(x)', \
     setup using 1:3 with lines lc rgb '#d95f02' title 'model σ(5x)', \
     setup using 1:4 with lines lc rgb '#999999' dt 2 title 'density, α = -0.5', \
     setup using 1:5 with lines lc rgb '#666666' dt 3 title 'density, α = 0', \
     setup using 1:6 with lines lc rgb '#333333' dt 4 title 'density, α = 0.5'
shift = dir . 'ckce-shift.csv'
set title 'estimates against the location α of P(X)'
set xlabel 'α'
set ylabel 'estimate'
set yrange [0:*]
set key top center
plot for [q in "ckce jkce ece"] rows(shift, 2, q) using 1:3:4 with yerrorlines \
     lc rgb metric_colour(q) pt 7 title q
unset multiplot
