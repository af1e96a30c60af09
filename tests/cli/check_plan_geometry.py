"""The picture's geometry as docs/plan.md states it, recomputed for the
tests of `plan --format svg` (check_plan.py, check_plan_render.py), in
Python's exact integers, thousandths of a user unit, rounded down:

    y(o) = 50 + o x 600 / arena_bytes
    x(s): the steps where a tensor (of nonzero size) starts are ALLOC_W = 4
    units wide each; each run of steps between them where none starts is
    GAP_W = 1 unit in all, a step inside the run at its share of it; the
    units scaled to 900 from x = 80.
"""
from bisect import bisect_left

ALLOC_W, GAP_W = 4, 1


class Geometry:
    def __init__(self, recs, steps, arena):
        self.span = max([steps, 1] + [r["last"] + 1 for r in recs])
        self.arena = max(arena, 1)
        self.f = sorted({r["first"] for r in recs if r["size_in_bytes"] and r["first"] < self.span})
        self.gb = [0]
        for j in range(len(self.f) + 1):
            g0 = 0 if j == 0 else self.f[j - 1] + 1
            g1 = self.span if j == len(self.f) else self.f[j]
            self.gb.append(self.gb[-1] + (g1 > g0))
        self.total = max(len(self.f) * ALLOC_W + self.gb[-1] * GAP_W, 1)

    def x(self, s):
        """x(s) in thousandths, for 0 <= s <= span."""
        j = bisect_left(self.f, s)
        if j < len(self.f) and self.f[j] == s:
            num, den = j * ALLOC_W + self.gb[j + 1] * GAP_W, 1
        else:
            g0 = 0 if j == 0 else self.f[j - 1] + 1
            g1 = self.span if j == len(self.f) else self.f[j]
            base = j * ALLOC_W + self.gb[j] * GAP_W
            if g1 <= g0 or s <= g0:
                num, den = base, 1
            else:
                num, den = base * (g1 - g0) + (s - g0) * GAP_W, g1 - g0
        return 80000 + num * 900000 // den // self.total

    def y(self, o):
        return 50000 + o * 600000 // self.arena

    def box(self, rec):
        """[x, y, width, height] of a record's rectangle, in thousandths."""
        end = self.span if rec["last"] >= self.span - 1 else rec["last"] + 1
        x0, x1 = self.x(rec["first"]), self.x(end)
        y0, y1 = self.y(rec["offset"]), self.y(rec["offset"] + rec["size_in_bytes"])
        return [x0, y0, x1 - x0, y1 - y0]
