# Figures of the NeurIPS 2019 reproduction (docs/reproduction.md), from results/neurips2019/*.csv:
#   neurips2019_estimates.png  histograms of the 10^4 estimates per model and estimator; solid line:
#                              their mean, dashed line: the true value (the poster's figure)
#   neurips2019_tests.png      empirical test error against the significance level (the poster's figure)
# Run from the repository root: gnuplot -e "results='results'" docs/figures/neurips2019.gp
if (!exists("results")) results = 'results'
dir = results.'/neurips2019/'
set datafile separator ','
set datafile columnheaders
set terminal pngcairo size 1400,900 font 'Sans,10'

models = 'M1 M2 M3'
estimators = 'ece skce_b skce_uq skce_ul'
titles = '"ECE (10 bins)" "SKCE_b" "SKCE_{uq}" "SKCE_{ul}"'

set output 'docs/figures/neurips2019_estimates.png'
set multiplot layout 3,4 title "NeurIPS 2019: distribution of the estimates over 10^4 data sets (n = 250, m = 10)\nsolid: mean of the estimates, dashed: true value" font 'Sans,12'
set style fill solid 0.5 noborder
set key off
set ytics format ''
set format x '%g'
# A round tic step of about x.
nice(x) = (e = 10**floor(log10(x)), f = x / e, (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * e)
do for [mi=1:3] {
  do for [ei=1:4] {
    model = word(models, mi)
    est = word(estimators, ei)
    file = dir.model.'.csv'
    set xrange [*:*]
    set yrange [*:*]
    stats file using est nooutput
    lo = STATS_min; hi = STATS_max; m = STATS_mean
    w = (hi - lo) / 40.0
    if (w <= 0) { w = 1e-6 }
    stats dir.'estimates.csv' using ((strcol("model") eq model && strcol("estimator") eq est) ? column("true") : NaN) nooutput
    truth = STATS_max
    set title model.': '.word(titles, ei)
    xlo = (lo < truth ? lo : truth); xhi = (hi > truth ? hi : truth)
    pad = 0.05 * (xhi - xlo)
    set xrange [xlo - pad:xhi + pad]
    set xtics nice((xhi - xlo) / 3.5)
    set yrange [0:*]
    unset arrow
    set arrow 1 from m, graph 0 to m, graph 1 nohead lw 2 lc rgb '#000000'
    set arrow 2 from truth, graph 0 to truth, graph 1 nohead lw 2 dt 2 lc rgb '#d62728'
    plot file using (w * floor(column(est) / w) + w / 2):(1.0) smooth frequency with boxes lc rgb '#1f77b4'
  }
}
unset multiplot
unset arrow

set output 'docs/figures/neurips2019_tests.png'
set terminal pngcairo size 1400,480 font 'Sans,10'
set multiplot layout 1,3 title "NeurIPS 2019: empirical test error against the significance level (10^4 data sets each)" font 'Sans,12'
set xtics autofreq
set format x '%.1f'
set ytics format '%.1f'
set xrange [-0.01:1.01]
set yrange [-0.03:1.03]
set xlabel 'significance level α'
tests = 'C D_b D_uq D_ul A_uq A_l'
labels = '"C (consistency, ECE)" "D_b" "D_{uq}" "D_{ul}" "A_{uq} (bootstrap)" "A_l (linear)"'
colors = '#9467bd #8c564b #e377c2 #7f7f7f #1f77b4 #ff7f0e'
kinds = '"type I error" "type II error" "type II error"'
do for [mi=1:3] {
  model = word(models, mi)
  set title model.' ('.(mi == 1 ? 'calibrated' : 'uncalibrated').')'
  set ylabel word(kinds, mi)
  if (mi == 2) { set key at graph 0.45, graph 0.6 center } else { set key off }
  plot for [ti=1:6] dir.'test_errors.csv' using 'alpha':((strcol("model") eq model && strcol("test") eq word(tests, ti)) ? column("error") : NaN) \
         with lines lw 2 lc rgb word(colors, ti) title word(labels, ti), \
       (mi == 1 ? x : NaN) with lines dt 2 lc rgb "#000000" title "α (M1)"
}
unset multiplot
