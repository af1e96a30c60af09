# The core library's sources: arithmetic only (no I/O, no cJSON, no globals).
set(DMLT_LIB_SOURCES
  src/lib/dtype.c
  src/lib/layout.c
  src/lib/offset.c
  src/lib/overlap.c
  src/lib/plan.c
  src/lib/plan_search.c
  src/lib/plan_skyline.c
  src/lib/plan_sort.c
  src/lib/report.c
  src/lib/solve.c
  src/lib/status.c
  src/lib/u128.c
  src/lib/validate.c
  src/lib/view.c
  src/lib/walk.c)
