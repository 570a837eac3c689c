#!/usr/bin/env python3
"""two_part_wedges.py SVG: how many fill colours of a ringchart's SVG (cairo's
"fill:rgb(R%,G%,B%)") are another fill's colour darkened as the chart darkens
a wedge's first part (x 0.62): the wedges drawn in two parts. Prints the count."""
import re
import sys

fills = {tuple(float(v) for v in m) for m in
         re.findall(r"fill:rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", open(sys.argv[1]).read())}
dark = sum(1 for f in fills
           if any(all(abs(f[i] - 0.62 * g[i]) < 0.01 for i in range(3)) for g in fills if g != f))
print(dark)
