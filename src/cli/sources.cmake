# The command line's sources, except main.c: built as the static library
# dmltensor_cli so that the executable, tests and fuzzers share them.
set(DMLT_CLI_SOURCES
  src/cli/cli_main.c
  src/cli/commands.c
  src/cli/cmd_batch.c
  src/cli/cmd_lists.c
  src/cli/cmd_map.c
  src/cli/cmd_offset.c
  src/cli/cmd_scan.c
  src/cli/cmd_size.c
  src/cli/cmd_validate.c
  src/cli/cmd_view.c
  src/cli/describe.c
  src/cli/descriptor.c
  src/cli/errors.c
  src/cli/json_parse.c
  src/cli/options.c
  src/cli/outbuf.c
  src/cli/parse.c
  src/cli/platform.c
  src/cli/records.c
  src/cli/results.c
  src/cli/render_c.c
  src/cli/scan_dxdispatch.c
  src/cli/source_json.c
  src/cli/source_onnx.c)
