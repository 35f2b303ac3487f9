# Checks the CSV an example prints (read from standard input, header
# first) against the figures of tests/data/expected-segment-coins.csv:
#   awk -F, -f check-regions.awk -v layout=segment|regionprops \
#     -v header=HEADER -v expected=FILE
# Integers equal, decimals within the last digit printed; says the first
# row that differs.

function near(value, want, tolerance) {
  return value - want <= tolerance && want - value <= tolerance
}

# segment: frame,timestamp,label,area,x,y,width,height,centroid_x,
# centroid_y,mean_intensity, decimals to three places
function segment_row(  i) {
  if (NF != 11 || $1 != 0)
    return 0
  for (i = 1; i <= 6; i++)
    if ($(i + 2) != w[i])
      return 0
  for (i = 7; i <= 9; i++)
    if (!near($(i + 2), w[i], 0.0015))
      return 0
  return 1
}

# regionprops: frame,timestamp,label,area,bbox-0..3 (rows and columns,
# ends excluded),intensity_mean,perimeter, decimals in full
function regionprops_row() {
  return NF == 10 && $1 == 0 && $3 == w[1] && $4 == w[2] && $5 == w[4] &&
    $6 == w[3] && $7 == w[4] + w[6] && $8 == w[3] + w[5] &&
    near($9, w[9], 0.0006) && near($10, w[10], 0.0006)
}

BEGIN {
  getline line < expected
  while ((getline line < expected) > 0)
    want[++n] = line
}
NR == 1 { bad = $0 != header; next }
{
  split(want[NR - 1], w, ",")
  if (!(layout == "segment" ? segment_row() : regionprops_row()))
    bad = 1
}
bad && !told { print "row " NR - 1 " differs from " want[NR - 1]; told = 1 }
END {
  if (NR - 1 != n)
    print NR - 1 " regions, expected " n
  exit bad || NR - 1 != n
}
